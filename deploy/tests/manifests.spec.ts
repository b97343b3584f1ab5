import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { infraTool } from '@ris/testing';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

/** tools/k8s-check on some kustomization directories: its exit code and its lines. */
async function check(...dirs: string[]): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await run(infraTool('K8S_CHECK'), dirs, { cwd: root });
    return { code: 0, lines: stdout.trim().split('\n') };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw err;
    return { code: failed.code, lines: `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().split('\n') };
  }
}

describe('Kubernetes manifests (kustomize build + strict decoding against k8s.io/api + the rules)', () => {
  it.each(['deploy/k8s/base', 'deploy/k8s/overlays/local', 'deploy/k8s/overlays/production'])('%s passes', async (dir) => {
    const result = await check(dir);
    expect(result.lines).toEqual([expect.stringMatching(new RegExp(`^ok   ${dir}: \\d+ objects$`))]);
    expect(result.code).toBe(0);
  });

  it('refuses an unknown field', async () => {
    const result = await check('deploy/tests/fixtures/unknown-field');
    expect(result.code).toBe(1);
    expect(result.lines.join('\n')).toContain('unknown field "spec.replica"');
  });

  it('refuses a value of the wrong type', async () => {
    const result = await check('deploy/tests/fixtures/wrong-type');
    expect(result.code).toBe(1);
    expect(result.lines.join('\n')).toMatch(/cannot unmarshal string into Go struct field ServicePort\.spec\.ports\.port of type int32/);
  });

  it('reports each broken rule', async () => {
    const result = await check('deploy/tests/fixtures/rules-broken');
    expect(result.code).toBe(1);
    const prefix = 'FAIL deploy/tests/fixtures/rules-broken: ';
    expect(result.lines.sort()).toEqual(
      [
        'Deployment catalog-marketplace-service: pod template lacks annotation prometheus.io/scrape: "true"',
        'Deployment fraud-service port metrics (9466): no NetworkPolicy lets a scraper in',
        'Deployment gateway cannot reach Deployment fraud-service port grpc (50052)',
        'Deployment gateway: terminationGracePeriodSeconds 10 is shorter than preStop (5 s) plus SHUTDOWN_GRACE_MS (15000 ms)',
        'Deployment incentive-service container incentive-service: root filesystem is not read-only',
        'Deployment referral-service port grpc (50051): NetworkPolicy referral-open admits every source',
        'Deployment reward-service container reward-service: no livenessProbe',
        'Deployment webhook-service runs 2 replicas but no PodDisruptionBudget selects its pods',
      ].map((line) => prefix + line),
    );
  });
});
