import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, e2eStack } from '@ris/testing';

const run = promisify(execFile);
const root = join(__dirname, '..', '..', '..');

describe('request ids across services', () => {
  it('logs the gateway request id in the services the request reached', async () => {
    const app = await createTestApp('request ids');
    const requestId = `trace-${Date.now()}`;
    const res = await app.api.post(
      '/campaigns',
      { name: 'Traced', referrerReward: { amount: 1, fulfillmentType: 'MANUAL' } },
      { 'x-request-id': requestId },
    );
    expect(res.status).toBe(201);
    const logDir = process.env.E2E_LOG_DIR as string;
    const lines = (file: string) =>
      readFileSync(join(logDir, file), 'utf8')
        .split('\n')
        .filter((l) => l.includes(requestId))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // pino writes asynchronously: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines('gateway.log')).toEqual(
      expect.arrayContaining([expect.objectContaining({ requestId, status: 201, path: '/api/v1/campaigns', appId: app.appId })]),
    );
    expect(lines('referral-service.log')).toEqual(
      expect.arrayContaining([expect.objectContaining({ requestId, procedure: 'CreateCampaign', code: 'ok', service: 'referral-service' })]),
    );
  });
});

describe('admin command-line tool', () => {
  it('creates an app and issues, lists and revokes keys', async () => {
    const env = { ...process.env, GATEWAY_URL: e2eStack().gatewayUrl, ADMIN_TOKEN: e2eStack().adminToken };
    const cli = (...args: string[]) => run(process.execPath, [join(root, 'tools', 'admin-cli.mjs'), ...args], { env });
    const created = JSON.parse((await cli('create-app', 'From the CLI')).stdout);
    expect(created.app.name).toBe('From the CLI');
    expect(created.apiKey).toMatch(/^rk_live_/);
    const issued = JSON.parse((await cli('issue-key', created.app.id)).stdout);
    const listed = JSON.parse((await cli('list-keys', created.app.id)).stdout);
    expect(listed.keys).toHaveLength(2);
    await cli('revoke-key', created.app.id, issued.key.id);
    const after = JSON.parse((await cli('list-keys', created.app.id)).stdout);
    expect(after.keys.find((k: { id: string }) => k.id === issued.key.id).revokedAt).not.toBeNull();
    await expect(cli('revoke-key', created.app.id)).rejects.toMatchObject({ code: 2 });
  });
});
