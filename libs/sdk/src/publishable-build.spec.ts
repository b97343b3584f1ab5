import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const sdk = join(__dirname, '..');
const root = join(sdk, '..', '..');

// The package builds on its own (no @ris/* import, no path outside it) into
// what its package.json promises, and that loads in plain Node.
describe('the SDK as a package', () => {
  // Inside the repository (dist/, ignored), so that the built files find standardwebhooks in node_modules.
  mkdirSync(join(root, 'dist'), { recursive: true });
  const out = mkdtempSync(join(root, 'dist', 'sdk-package-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('builds with its own tsconfig into the files package.json exports, which load and work', () => {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(sdk, 'tsconfig.build.json'), '--outDir', out], { stdio: 'pipe' });
    const manifest = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(Object.keys(manifest.dependencies)).toEqual(['standardwebhooks']);
    for (const file of ['index.js', 'index.d.ts', 'generated/openapi.d.ts']) expect([file, existsSync(join(out, file))]).toEqual([file, true]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built CommonJS file itself
    const built = require(join(out, 'index.js'));
    expect(Object.keys(built).sort()).toEqual(['ApiError', 'NetworkError', 'ReferralIncentiveClient', 'RequestTimeoutError', 'RisError', 'WebhookVerificationError', 'paginate', 'verifyWebhook']);
    const client = new built.ReferralIncentiveClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'rk_live_x' });
    expect(typeof client.incentives.leaderboard.get).toBe('function');
    // Nothing of the repository outside the package.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]));
    const outside = sources(join(sdk, 'src')).filter((file) => /from '(@ris\/|\.\.\/\.\.\/\.\.)/.test(readFileSync(file, 'utf8')));
    expect(outside).toEqual([]);
  });
});
