import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** URLs of the infrastructure: from the environment, else what tools/infra/up.sh wrote. */
export function readInfraEnv(root: string): { MONGODB_URL: string; NATS_URL: string; REDIS_URL: string } {
  const file = join(root, '.run', 'infra.env');
  const written: Record<string, string> = {};
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match) written[match[1]] = match[2];
    }
  }
  const pick = (name: string, fallback: string) => process.env[name] || written[name] || fallback;
  return {
    MONGODB_URL: pick('MONGODB_URL', 'mongodb://127.0.0.1:27017'),
    NATS_URL: pick('NATS_URL', 'nats://127.0.0.1:4222'),
    REDIS_URL: pick('REDIS_URL', 'redis://127.0.0.1:6379'),
  };
}
