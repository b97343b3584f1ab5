import { ConfigError, loadConfig } from '@ris/config';
import { Keyring, newKeyringEntry } from '@ris/secrets';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from './dispatch/backoff-schedule';
import { webhookSettings } from './webhook-settings';

describe('webhook service settings', () => {
  const SECRETS_KEYS = newKeyringEntry('k1');

  it('has safe defaults: private targets refused, 10 s timeout, about 3 days of retries', () => {
    expect(loadConfig(webhookSettings, { SECRETS_KEYS })).toEqual({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_RETRY_SCHEDULE: DEFAULT_RETRY_SCHEDULE_SECONDS,
      WEBHOOK_DISABLE_AFTER_MS: 3 * 24 * 3600 * 1000,
      WEBHOOK_MAX_IN_FLIGHT: 256,
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: 4,
      WEBHOOK_POLL_INTERVAL_MS: 500,
      WEBHOOK_RETENTION_DAYS: 30,
      SECRETS_KEYS: expect.any(Keyring),
    });
  });

  it('will not start without the master keys of the signing secrets, in any mode', () => {
    // No built-in key: not in production (the images set NODE_ENV=production), not in development.
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() => loadConfig(webhookSettings, { NODE_ENV })).toThrow(/SECRETS_KEYS: required: .*\(not set\)/);
    }
    expect(loadConfig(webhookSettings, { SECRETS_KEYS: `k2:${Buffer.alloc(32, 2).toString('base64')},${SECRETS_KEYS}` }).SECRETS_KEYS.ids).toEqual([
      'k2',
      'k1',
    ]);
  });

  it('reads what tests and deployments set', () => {
    const config = loadConfig(webhookSettings, { SECRETS_KEYS, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,2' });
    expect(config.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([1, 1, 2]);
  });

  it('names every bad setting', () => {
    let error: unknown;
    try {
      loadConfig(webhookSettings, { SECRETS_KEYS, WEBHOOK_RETRY_SCHEDULE: '5m,1h', WEBHOOK_TIMEOUT_MS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(message).toContain('WEBHOOK_RETRY_SCHEDULE: must be comma-separated seconds');
    expect(message).toContain('WEBHOOK_TIMEOUT_MS');
    expect(message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    expect(problems).toHaveLength(3);
  });
});
