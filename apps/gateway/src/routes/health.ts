import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import { HealthCheckResponse_ServingStatus as ServingStatus } from '@ris/contracts';
import { isMongoConnected } from '@ris/mongo';
import type { ApiRouter } from '../http/api-router';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const Readiness = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), z.enum(['ok', 'failing'])) })
  .openapi('Readiness');

/** Liveness (the process answers) and readiness (it can serve: stores and every service are up). */
export function healthRoutes(api: ApiRouter, deps: { db: Connection; redis: Redis; clients: ServiceClients }): void {
  api.route({
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Liveness',
    responses: { 200: { description: 'The process is alive', schema: z.object({ status: z.literal('ok') }) } },
    handle: async () => ({ status: 200, body: { status: 'ok' } }),
  });

  api.route({
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Readiness: MongoDB, Redis and every backend service',
    responses: {
      200: { description: 'Ready', schema: Readiness },
      503: { description: 'Not ready; checks says what fails', schema: Readiness },
    },
    handle: async () => {
      const checks: Record<string, 'ok' | 'failing'> = {};
      const probe = async (name: string, fn: () => Promise<boolean> | boolean) => {
        try {
          checks[name] = (await fn()) ? 'ok' : 'failing';
        } catch {
          checks[name] = 'failing';
        }
      };
      await Promise.all([
        probe('mongodb', () => isMongoConnected(deps.db)),
        probe('redis', async () => (await deps.redis.ping()) === 'PONG'),
        ...Object.entries(deps.clients.health).map(([name, client]) =>
          probe(name, async () => (await client.check({ service: '' })).status === ServingStatus.SERVING),
        ),
      ]);
      const ready = Object.values(checks).every((c) => c === 'ok');
      return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks } };
    },
  });
}
