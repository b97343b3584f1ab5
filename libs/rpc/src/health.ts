import type { ServiceImpl } from '@connectrpc/connect';
import { type Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@ris/contracts';

/** A dependency the service cannot answer without (its database, the broker). */
export interface ReadinessCheck {
  name: string;
  check: () => boolean | Promise<boolean>;
}

export async function isReady(checks: ReadinessCheck[]): Promise<{ ready: boolean; failing: string[] }> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        return (await c.check()) ? null : c.name;
      } catch {
        return c.name;
      }
    }),
  );
  const failing = results.filter((name): name is string => name !== null);
  return { ready: failing.length === 0, failing };
}

/**
 * The standard grpc.health.v1.Health service. "" and the service's own full
 * name report SERVING only while every readiness check passes, so
 * Kubernetes' grpc probes and grpc_health_probe see a service that has lost
 * its database as not ready.
 */
export function healthService(serviceNames: string[], checks: ReadinessCheck[]): ServiceImpl<typeof Health> {
  const known = new Set(['', ...serviceNames]);
  const status = async (service: string) => {
    if (!known.has(service)) return ServingStatus.SERVICE_UNKNOWN;
    return (await isReady(checks)).ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  };
  return {
    async check(req) {
      return { status: await status(req.service) };
    },
    async *watch(req, ctx) {
      let last: ServingStatus | undefined;
      while (!ctx.signal.aborted) {
        const now = await status(req.service);
        if (now !== last) {
          last = now;
          yield { status: now };
        }
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    },
  };
}
