import { OperatorSession, adminClient, createOperator, createTestApp, type ApiClient, type ApiResponse, type TestApp, type TestOperator } from '@ris/testing';
import { createCampaign, createReferral, convert } from './support/referral-scenario';


async function member(appId: string, operatorId: string, role: string): Promise<void> {
  const res = await adminClient().put(`/apps/${appId}/members/${operatorId}`, { role });
  if (res.status !== 200) throw new Error(`membership: ${res.status} ${JSON.stringify(res.body)}`);
}

const campaignBody = (name: string) => ({ name, referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
const webhookBody = { url: 'http://127.0.0.1:9/hooks', events: ['REFERRAL_CREATED'] };

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];
let unique = 0;
const next = () => `${Date.now().toString(36)}-${(unique += 1)}`;

// The role matrix, enforced by the server on every route: a session acts
// in one app with the operator's role there; an API key is its app's
// backend and may do anything in it.
describe('roles of dashboard operators', () => {
  let app: TestApp;
  let appB: TestApp;
  const ops: Record<'owner' | 'manager' | 'viewer' | 'root', TestOperator> = {} as never;
  const sessions: Record<'owner' | 'manager' | 'viewer' | 'root', OperatorSession> = {} as never;
  let campaignId: string;
  let webhookId: string;

  beforeAll(async () => {
    [app, appB] = await Promise.all([createTestApp('roles'), createTestApp('roles B')]);
    [ops.owner, ops.manager, ops.viewer, ops.root] = await Promise.all([createOperator(), createOperator(), createOperator(), createOperator({ isAdmin: true })]);
    await member(app.appId, ops.owner.id, 'OWNER');
    await member(app.appId, ops.manager.id, 'MANAGER');
    await member(app.appId, ops.viewer.id, 'VIEWER');
    for (const who of ['owner', 'manager', 'viewer', 'root'] as const) sessions[who] = await OperatorSession.signIn(ops[who].email, ops[who].password);
    campaignId = (await createCampaign(app, { name: 'Existing' })).id;
    webhookId = (await app.api.post('/webhooks', webhookBody)).body.webhook.id;
  });

  const api = (who: keyof typeof sessions): ApiClient => sessions[who].api(app.appId);
  const consoleOf = (who: keyof typeof sessions): ApiClient => sessions[who].console;

  it('lets a VIEWER read everything of the app and refuses every change with 403 FORBIDDEN, naming the role it needs', async () => {
    for (const path of ['/campaigns', `/campaigns/${campaignId}`, '/webhooks', `/webhooks/${webhookId}`, '/fraud/flags', '/rewards', `/stats?campaignId=${campaignId}`]) {
      expect([path, (await api('viewer').get(path)).status]).toEqual([path, 200]);
    }
    const create = await api('viewer').post('/campaigns', campaignBody('Viewer made'));
    expect(statusAndCode(create)).toEqual([403, 'FORBIDDEN']);
    expect(create.body.error.details).toEqual({ requiredRole: 'MANAGER', role: 'VIEWER' });
    for (const res of [
      await api('viewer').patch(`/campaigns/${campaignId}`, { name: 'Renamed by a viewer' }),
      await api('viewer').post('/referrals', { campaignId, referrerId: 'viewer-user' }),
      await api('viewer').post('/fraud/flags/flg_none/resolve', { decision: 'APPROVE' }),
      await api('viewer').post('/webhooks', webhookBody),
      await api('viewer').request('DELETE', `/webhooks/${webhookId}`),
      await api('viewer').post('/incentives/actions', { key: 'viewer_action', name: 'Viewer' }),
      await consoleOf('viewer').get(`/apps/${app.appId}/keys`),
      await consoleOf('viewer').post(`/apps/${app.appId}/keys`),
      await consoleOf('viewer').get(`/apps/${app.appId}/members`),
    ]) {
      expect(statusAndCode(res)).toEqual([403, 'FORBIDDEN']);
    }
    // A refusal for the role comes before the body is looked at.
    expect(statusAndCode(await api('viewer').post('/campaigns', { nonsense: true }))).toEqual([403, 'FORBIDDEN']);
    expect((await app.api.get(`/campaigns/${campaignId}`)).body.campaign.name).toBe('Existing');
    expect((await consoleOf('viewer').get(`/apps/${app.appId}/audit`)).status).toBe(200);
  });

  it('lets a MANAGER change campaigns and referrals, but not webhooks, API keys or members (OWNER)', async () => {
    const created = await api('manager').post('/campaigns', campaignBody('Manager made'));
    expect(created.status).toBe(201);
    expect((await api('manager').patch(`/campaigns/${created.body.campaign.id}`, { status: 'PAUSED' })).body.campaign.status).toBe('PAUSED');
    expect((await api('manager').post('/referrals', { campaignId, referrerId: 'manager-user' })).status).toBe(201);
    for (const res of [
      await api('manager').post('/webhooks', webhookBody),
      await api('manager').patch(`/webhooks/${webhookId}`, { enabled: false }),
      await api('manager').post(`/webhooks/${webhookId}/secret/rotate`),
      await api('manager').post(`/webhooks/${webhookId}/test`),
      await api('manager').request('DELETE', `/webhooks/${webhookId}`),
      await consoleOf('manager').get(`/apps/${app.appId}/keys`),
      await consoleOf('manager').post(`/apps/${app.appId}/members`, { email: 'someone@example.test', role: 'VIEWER' }),
    ]) {
      expect(statusAndCode(res)).toEqual([403, 'FORBIDDEN']);
    }
    expect((await api('manager').get(`/webhooks/${webhookId}`)).body.webhook.enabled).toBe(true);
  });

  it('lets an OWNER do all of it, and an instance administrator enter any app as OWNER', async () => {
    for (const who of ['owner', 'root'] as const) {
      expect((await api(who).post('/campaigns', campaignBody(`${who} made`))).status).toBe(201);
      const hook = await api(who).post('/webhooks', webhookBody);
      expect(hook.status).toBe(201);
      expect((await api(who).patch(`/webhooks/${hook.body.webhook.id}`, { enabled: false })).status).toBe(200);
      expect((await api(who).post(`/webhooks/${hook.body.webhook.id}/secret/rotate`)).status).toBe(200);
      expect((await api(who).request('DELETE', `/webhooks/${hook.body.webhook.id}`)).status).toBe(204);
      expect((await consoleOf(who).get(`/apps/${app.appId}/keys`)).status).toBe(200);
      expect((await consoleOf(who).get(`/apps/${app.appId}/members`)).status).toBe(200);
    }
    expect((await sessions.root.api(appB.appId).get('/campaigns')).status).toBe(200);
  });

  it("never lets an operator reach another app's data: 403 for its X-App-Id and its console routes", async () => {
    await createCampaign(appB, { name: 'B only' });
    for (const res of [
      await sessions.owner.api(appB.appId).get('/campaigns'),
      await sessions.owner.api(appB.appId).post('/campaigns', campaignBody('Into B')),
      await consoleOf('owner').get(`/apps/${appB.appId}/members`),
      await consoleOf('owner').get(`/apps/${appB.appId}/keys`),
      await consoleOf('owner').get(`/apps/${appB.appId}/audit`),
      await consoleOf('owner').put('/session/app', { appId: appB.appId }),
    ]) {
      expect(statusAndCode(res)).toEqual([403, 'FORBIDDEN']);
    }
    // Its own app's lists hold nothing of B.
    const names = (await api('owner').get('/campaigns?limit=100')).body.campaigns.map((c: { name: string }) => c.name);
    expect(names).not.toContain('B only');
    expect((await appB.api.get('/campaigns')).body.campaigns.map((c: { name: string }) => c.name)).toEqual(['B only']);
  });

  it("leaves an API key's calls as they were: every change of its app, none of it in the audit log", async () => {
    const hook = await app.api.post('/webhooks', webhookBody);
    expect(hook.status).toBe(201);
    expect(hook.headers.get('cache-control')).toBeNull();
    expect((await app.api.request('DELETE', `/webhooks/${hook.body.webhook.id}`)).status).toBe(204);
    const audit = await consoleOf('owner').get(`/apps/${app.appId}/audit?limit=100`);
    expect(audit.body.entries.filter((e: any) => e.target?.id === hook.body.webhook.id)).toEqual([]);
  });

  describe('the audit log', () => {
    const auditOf = async (who: keyof typeof sessions, query = '') =>
      (await consoleOf(who).get(`/apps/${app.appId}/audit?limit=100${query}`)).body.entries as any[];

    it('records each change an operator makes: who, when, the action, the target, the resource before and after', async () => {
      const created = await api('manager').post('/campaigns', campaignBody(`Audited ${next()}`));
      const id = created.body.campaign.id;
      const renamed = await api('owner').patch(`/campaigns/${id}`, { name: 'Audited, renamed' });
      expect(renamed.status).toBe(200);

      const entries = (await auditOf('viewer')).filter((e) => e.target?.id === id);
      expect(entries).toEqual([
        {
          id: expect.stringMatching(/^aud_/),
          at: expect.any(String),
          operator: { id: ops.owner.id, email: ops.owner.email },
          action: 'PATCH /api/v1/campaigns/{campaignId}',
          summary: 'Update a campaign',
          target: { type: 'campaign', id },
          before: { campaign: created.body.campaign },
          after: renamed.body,
          outcome: 'SUCCEEDED',
        },
        {
          id: expect.stringMatching(/^aud_/),
          at: expect.any(String),
          operator: { id: ops.manager.id, email: ops.manager.email },
          action: 'POST /api/v1/campaigns',
          summary: 'Create a campaign',
          target: { type: 'campaign', id },
          before: null,
          after: created.body,
          outcome: 'SUCCEEDED',
        },
      ]);
      expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[1].at));
      const byOwner = await auditOf('viewer', `&operatorId=${ops.owner.id}`);
      expect(byOwner.length).toBeGreaterThan(0);
      expect(byOwner.every((e) => e.operator.id === ops.owner.id)).toBe(true);
      const creates = await auditOf('viewer', `&action=${encodeURIComponent('POST /api/v1/campaigns')}`);
      expect(creates.length).toBeGreaterThan(0);
      expect(creates.every((e) => e.action === 'POST /api/v1/campaigns')).toBe(true);
    });

    it('keeps secrets out: an issued key and a webhook secret are "[redacted]", and key changes are for OWNER eyes only', async () => {
      const issued = await consoleOf('owner').post(`/apps/${app.appId}/keys`);
      expect(issued.status).toBe(201);
      const hook = await api('owner').post('/webhooks', webhookBody);
      const ownerView = await auditOf('owner');
      const keyEntry = ownerView.find((e) => e.target?.id === issued.body.key.id);
      expect(keyEntry).toMatchObject({
        action: `POST /console/v1/apps/{appId}/keys`,
        target: { type: 'key', id: issued.body.key.id },
        after: { key: { id: issued.body.key.id, apiKey: '[redacted]', prefix: issued.body.key.prefix } },
      });
      const hookEntry = ownerView.find((e) => e.target?.id === hook.body.webhook.id);
      expect(hookEntry.after).toEqual({ webhook: hook.body.webhook, secret: '[redacted]' });
      const everything = JSON.stringify(ownerView);
      expect(everything).not.toContain(issued.body.key.apiKey);
      expect(everything).not.toContain(hook.body.secret);
      // A VIEWER's page has the webhook (they can read webhooks) but not the key.
      const viewerView = await auditOf('viewer');
      expect(viewerView.some((e) => e.target?.id === hook.body.webhook.id)).toBe(true);
      expect(viewerView.some((e) => e.target?.id === issued.body.key.id)).toBe(false);
    });

    it('records nothing for a change that was refused', async () => {
      const before = (await auditOf('owner')).length;
      expect((await api('owner').post('/campaigns', { name: '' })).status).toBe(400);
      expect((await api('owner').patch('/campaigns/cmp_does_not_exist', { name: 'x' })).status).toBe(404);
      expect((await api('viewer').post('/campaigns', campaignBody('refused'))).status).toBe(403);
      expect((await auditOf('owner')).length).toBe(before);
    });

    it('records who resolved a fraud flag, on the flag itself and in the log; an API key resolves without a name', async () => {
      const campaign = await createCampaign(app, { name: `Guarded ${next()}`, refereeReward: { amount: 4, fulfillmentType: 'COUPON_CODE' } });
      const flagged = async () => {
        const user = `cheat-${next()}`;
        const { referralCode } = await createReferral(app, campaign.id, user);
        const conversion = await convert(app, referralCode, user);
        const flags = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags;
        return { conversion, flag: flags.find((f: any) => f.conversionId === conversion.conversionId) };
      };
      const { conversion, flag } = await flagged();
      expect(flag.resolvedBy).toBeNull();
      const resolved = await api('manager').post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT', note: 'same person' });
      expect(resolved.status).toBe(200);
      expect(resolved.body.flag).toMatchObject({ status: 'REJECTED', note: 'same person', resolvedBy: { operatorId: ops.manager.id, email: ops.manager.email } });
      const listed = (await app.api.get('/fraud/flags?status=REJECTED&limit=100')).body.flags.find((f: any) => f.id === flag.id);
      expect(listed.resolvedBy).toEqual({ operatorId: ops.manager.id, email: ops.manager.email });
      // The same effect as the API's resolve: its held rewards are cancelled.
      for (const reward of conversion.rewards) expect((await app.api.get(`/rewards/${reward.rewardId}`)).body.reward.status).toBe('CANCELLED');
      const entry = (await auditOf('viewer')).find((e) => e.target?.id === flag.id);
      expect(entry).toMatchObject({
        operator: { id: ops.manager.id },
        action: 'POST /api/v1/fraud/flags/{flagId}/resolve',
        summary: 'Resolve a fraud flag',
        target: { type: 'flag', id: flag.id },
        after: resolved.body,
      });

      const second = await flagged();
      const byKey = await app.api.post(`/fraud/flags/${second.flag.id}/resolve`, { decision: 'APPROVE' });
      expect(byKey.body.flag).toMatchObject({ status: 'APPROVED', resolvedBy: null });
    });
  });
});
