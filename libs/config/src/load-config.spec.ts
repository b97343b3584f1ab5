import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config';
import { serviceSettings, setting } from './settings';

describe('loadConfig', () => {
  it('applies defaults for unset and empty variables', () => {
    const config = loadConfig(serviceSettings('referral', 50051), { PORT: '' });
    expect(config).toMatchObject({ PORT: 50051, MONGODB_DB: 'ris_referral', NATS_URL: 'nats://127.0.0.1:4222', EVENTS_STREAM: 'DOMAIN' });
  });

  it('names every bad setting in one error', () => {
    let error: unknown;
    try {
      loadConfig(
        { ...serviceSettings('referral', 50051), ADMIN_TOKEN: z.string().min(16) },
        { PORT: 'eighty', MONGODB_URL: 'http://nope', ADMIN_TOKEN: 'short' },
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('MONGODB_URL: must be a URL starting with mongodb://');
    expect(message).toContain('ADMIN_TOKEN');
    expect((error as ConfigError).problems).toHaveLength(3);
  });

  it('parses booleans strictly', () => {
    expect(loadConfig({ FLAG: setting.boolean(false) }, { FLAG: 'yes' }).FLAG).toBe(true);
    expect(loadConfig({ FLAG: setting.boolean(true) }, {}).FLAG).toBe(true);
    expect(() => loadConfig({ FLAG: setting.boolean(false) }, { FLAG: 'maybe' })).toThrow(/FLAG: must be true or false/);
  });

  it('names a secret setting when it is invalid but never shows its value', () => {
    const shape = { TOKEN: setting.secret(z.string().min(16, 'must be at least 16 characters')), NAME: setting.name('x') };
    expect(() => loadConfig(shape, { TOKEN: 'hunter2', NAME: 'a b' })).toThrow(ConfigError);
    try {
      loadConfig(shape, { TOKEN: 'hunter2', NAME: 'a b' });
    } catch (err) {
      const { message } = err as ConfigError;
      expect(message).toContain('TOKEN: must be at least 16 characters');
      expect(message).not.toContain('hunter2');
      // Other settings are still echoed, to help fix them.
      expect(message).toContain('(got "a b")');
    }
    expect(() => loadConfig(shape, {})).toThrow(/TOKEN: .*\(not set\)/);
  });
});
