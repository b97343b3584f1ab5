import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { freePort } from '@ris/stack';
import { restartableServer } from './restartable-server';

const root = join(__dirname, '..', '..', '..');

/** Infrastructure URLs: the environment, else what tools/infra/up.sh wrote. */
export function infraUrl(name: 'MONGODB_URL' | 'NATS_URL' | 'REDIS_URL'): string {
  if (process.env[name]) return process.env[name] as string;
  const file = join(root, '.run', 'infra.env');
  if (existsSync(file)) {
    const match = new RegExp(`^${name}=(.*)$`, 'm').exec(readFileSync(file, 'utf8'));
    if (match) return match[1];
  }
  return { MONGODB_URL: 'mongodb://127.0.0.1:27017', NATS_URL: 'nats://127.0.0.1:4222', REDIS_URL: 'redis://127.0.0.1:6379' }[name];
}

/**
 * A tool tools/infra/up.sh installed or built and named in .run/infra.env
 * (PROMETHEUS, PROMTOOL, K8S_CHECK, SCHEMATHESIS), or the path the
 * environment gives.
 */
export function infraTool(name: 'PROMETHEUS' | 'PROMTOOL' | 'K8S_CHECK' | 'SCHEMATHESIS' | 'CHROMIUM'): string {
  if (process.env[name]) return process.env[name] as string;
  const file = join(root, '.run', 'infra.env');
  const match = existsSync(file) ? new RegExp(`^${name}=(.+)$`, 'm').exec(readFileSync(file, 'utf8')) : null;
  if (!match || !existsSync(match[1])) throw new Error(`${name} is not installed: run bash tools/infra/up.sh (npm test does)`);
  return match[1];
}

export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** A database of its own for one test file, on the real server; drop() removes it. */
export async function testDatabase(prefix = 'test'): Promise<Connection & { drop(): Promise<void> }> {
  const connection = await mongoose.createConnection(infraUrl('MONGODB_URL'), { dbName: uniqueName(prefix) }).asPromise();
  return Object.assign(connection, {
    async drop() {
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
    },
  });
}

/** A TCP port nothing listens on right now (for private servers in tests): the stack's own finder. */
export const freeTcpPort = freePort;

/**
 * A private nats-server -js that a test may stop and start again (to prove
 * nothing is lost while the broker is down) without disturbing other tests.
 * Its JetStream data survives restarts.
 */
export async function privateNatsServer() {
  const port = await freeTcpPort();
  const storeDir = mkdtempSync(join(tmpdir(), 'nats-test-'));
  const server = restartableServer('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], port);
  return {
    url: `nats://127.0.0.1:${port}`,
    start: server.start,
    stop: server.stop,
    async dispose() {
      await this.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
