import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { infraTool } from '@ris/testing';

const run = promisify(execFile);
const dir = join(__dirname, '..', 'observability');

/** promtool with its output, failing the test with promtool's own words. */
async function promtool(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(infraTool('PROMTOOL'), args, { cwd: dir });
    return stdout + stderr;
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

describe('alert rules (deploy/observability)', () => {
  it('are valid rules', async () => {
    expect(await promtool('check', 'rules', 'alert-rules.yml')).toMatch(/SUCCESS: 7 rules found/);
  });

  it('fire when they should and stay quiet otherwise (promtool test rules)', async () => {
    expect(await promtool('test', 'rules', 'alert-rules.test.yml')).toContain('SUCCESS');
  });

  it("docker-compose's Prometheus configuration is valid and loads the rules", async () => {
    expect(await promtool('check', 'config', 'prometheus.yml')).toMatch(/SUCCESS: prometheus\.yml is valid/);
  });
});
