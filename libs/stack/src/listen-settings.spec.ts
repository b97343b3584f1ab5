import { httpUrl, reachableHost } from './apps';
import { ListenSettingsError, listenSettings } from './listen-settings';

describe("npm start's listen settings", () => {
  it('defaults to the well-known ports on loopback', () => {
    expect(listenSettings({})).toEqual({
      host: '127.0.0.1',
      ports: {
        gateway: 8080,
        'referral-service': 50051,
        'fraud-service': 50052,
        'reward-service': 50053,
        'incentive-service': 50054,
        'catalog-marketplace-service': 50055,
        'webhook-service': 50056,
      },
    });
    // Empty means unset, as for every setting.
    expect(listenSettings({ PORT: '', HOST: ' ' }).ports.gateway).toBe(8080);
  });

  it('honours PORT, HOST, <SERVICE>_SERVICE_PORT and the port of a local <SERVICE>_SERVICE_URL', () => {
    const settings = listenSettings({
      PORT: '9090',
      HOST: '0.0.0.0',
      REFERRAL_SERVICE_PORT: '6001',
      FRAUD_SERVICE_URL: 'http://127.0.0.1:6002',
      REWARD_SERVICE_URL: 'http://localhost:6003/',
      CATALOG_MARKETPLACE_SERVICE_PORT: '6005',
      CATALOG_MARKETPLACE_SERVICE_URL: 'http://127.0.0.1:6005',
    });
    expect(settings).toEqual({
      host: '0.0.0.0',
      ports: expect.objectContaining({
        gateway: 9090,
        'referral-service': 6001,
        'fraud-service': 6002,
        'reward-service': 6003,
        'incentive-service': 50054,
        'catalog-marketplace-service': 6005,
      }),
    });
  });

  it('refuses what it cannot honour, naming the setting', () => {
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        listenSettings(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ListenSettingsError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ PORT: 'eighty' })).toMatch(/^PORT must be a port number/);
    expect(refusal({ PORT: '70000' })).toMatch(/^PORT must be a port number/);
    expect(refusal({ WEBHOOK_SERVICE_PORT: '0' })).toMatch(/^WEBHOOK_SERVICE_PORT must be a port number/);
    expect(refusal({ FRAUD_SERVICE_URL: 'http://10.0.0.5:50052' })).toMatch(/FRAUD_SERVICE_URL=.*Set FRAUD_SERVICE_PORT to move fraud-service/);
    expect(refusal({ FRAUD_SERVICE_URL: 'http://127.0.0.1' })).toMatch(/FRAUD_SERVICE_URL=/);
    expect(refusal({ FRAUD_SERVICE_URL: 'not a url' })).toMatch(/^FRAUD_SERVICE_URL must be a URL/);
    expect(refusal({ FRAUD_SERVICE_PORT: '6002', FRAUD_SERVICE_URL: 'http://127.0.0.1:6003' })).toMatch(/FRAUD_SERVICE_PORT=6002 and FRAUD_SERVICE_URL=.* disagree/);
    expect(refusal({ PORT: '50051' })).toBe('gateway and referral-service would both listen on port 50051 (PORT, REFERRAL_SERVICE_PORT (default)): give one another port');
  });

  it('reaches a wildcard listen address on loopback', () => {
    expect(httpUrl(reachableHost('0.0.0.0'), 8080)).toBe('http://127.0.0.1:8080');
    expect(httpUrl(reachableHost('::'), 8080)).toBe('http://[::1]:8080');
    expect(httpUrl(reachableHost('192.168.1.20'), 80)).toBe('http://192.168.1.20:80');
  });
});
