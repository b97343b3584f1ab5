import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, e2eStack } from '@ris/testing';

const root = join(__dirname, '..', '..', '..');

// The README's runnable example (examples/signup-flow) does what it says against the real stack.
describe('examples/signup-flow', () => {
  it('runs to its end: hosted link, click, conversion, verified webhook', async () => {
    const app = await createTestApp('signup example');
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'examples', 'signup-flow', 'run.mjs')], {
      env: { ...process.env, RIS_API_URL: e2eStack().gatewayUrl, RIS_API_KEY: app.apiKey },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/4\. Bob opened it: 302 → https:\/\/shop\.example\.com\/signup\?ref=[A-Z0-9]+&utm_source=example&utm_medium=email/);
    expect(stdout).toContain('6. webhook verified: CONVERSION_CREATED msg_');
    expect(stdout).toContain('campaign stats: 1 click, 1 conversion, reward value 15');
    expect(stdout).toContain('done: signup flow complete');
    // It cleaned up after itself.
    expect((await app.api.get('/webhooks')).body.webhooks).toEqual([]);
  });
});
