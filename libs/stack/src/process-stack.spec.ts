import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newKeyringEntry } from '@ris/secrets';
import { freePort } from './free-port';
import { ProcessStack, describeGiveUp } from './process-stack';
import { RecentLines } from './recent-lines';

// The parts of the stack that need no built apps: fixed ports are checked
// before anything starts, and a give-up report says what happened.
describe('process stack', () => {
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    busyPort = await freePort();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise((resolve) => busy.close(resolve)));

  const stack = (ports: ConstructorParameters<typeof ProcessStack>[0]['ports']) =>
    new ProcessStack({
      root: '/nonexistent',
      infra: { MONGODB_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1', REDIS_URL: 'redis://127.0.0.1:1' },
      adminToken: 'x'.repeat(16),
      secretsKeys: newKeyringEntry('t1'),
      dbPrefix: 't_',
      eventsStream: 'T',
      eventsSubjectPrefix: 't',
      redisKeyPrefix: 't:',
      ports,
      logDir: mkdtempSync(join(tmpdir(), 'stack-')),
    });

  it('refuses a busy fixed port before starting anything, naming the setting that moves the app', async () => {
    await expect(stack({ gateway: busyPort }).start()).rejects.toThrow(
      `port ${busyPort} (gateway) is already in use on 127.0.0.1: another npm start, or another program, listens there. Set PORT to a free port`,
    );
    await expect(stack({ gateway: await freePort(), 'incentive-service': busyPort }).start()).rejects.toThrow(
      `port ${busyPort} (incentive-service) is already in use on 127.0.0.1: another npm start, or another program, listens there. Set INCENTIVE_SERVICE_PORT to a free port`,
    );
  });

  it('reports a give-up with the app, its exit, its last output and its log', () => {
    const recent = new RecentLines(3);
    recent.push('one\ntwo\nthree\n');
    recent.push('fraud-service: Invalid configuration:\n  - FRAUD_IP_VELOCITY_LIMIT: too small');
    expect(
      describeGiveUp({ app: 'fraud-service', code: 2, signal: null, exits: 5, withinMs: 60_000, logFile: '/logs/fraud-service.log', lastLines: recent.last(), at: new Date() }),
    ).toEqual([
      'GAVE UP on fraud-service: it exited 5 times within 60.0 s, the last time with exit code 2. It is not running and will not be restarted; the rest of the stack keeps running.',
      '  last output of fraud-service (full log: /logs/fraud-service.log):',
      '  | three',
      '  | fraud-service: Invalid configuration:',
      '  |   - FRAUD_IP_VELOCITY_LIMIT: too small',
    ]);
  });
});
