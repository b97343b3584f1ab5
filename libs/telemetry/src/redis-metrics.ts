import type { Redis } from 'ioredis';
import { Histogram } from 'prom-client';
import { metricsEnabled } from './metrics-server';

const redisDuration = new Histogram({
  name: 'ris_redis_command_duration_seconds',
  help: 'Redis command latency seen by this process, by command and outcome',
  labelNames: ['command', 'outcome'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
});

interface SentCommand {
  name: string;
  promise: Promise<unknown>;
}

/**
 * Times every command the client sends (ioredis has no command events):
 * one histogram observation when its answer arrives. Only while metrics
 * are on.
 */
export function instrumentRedis(redis: Redis): Redis {
  if (!metricsEnabled()) return redis;
  const send = redis.sendCommand.bind(redis) as (command: SentCommand, ...rest: unknown[]) => unknown;
  (redis as unknown as { sendCommand: typeof send }).sendCommand = (command, ...rest) => {
    const started = performance.now();
    const result = send(command, ...rest);
    command.promise.then(
      () => redisDuration.observe({ command: command.name, outcome: 'ok' }, (performance.now() - started) / 1000),
      () => redisDuration.observe({ command: command.name, outcome: 'error' }, (performance.now() - started) / 1000),
    );
    return result;
  };
  return redis;
}
