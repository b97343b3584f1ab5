import { z } from 'zod';

/** Settings whose value must never be echoed (a wrong token or key would land in the logs). */
const secretSettings = new WeakSet<object>();

export function isSecretSetting(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && secretSettings.has(schema);
}

/** Zod pieces for the kinds of settings every app reads. */
export const setting = {
  /** Marks a setting as secret: loadConfig names it when it is invalid but never shows its value. */
  secret: <T extends z.ZodType>(schema: T): T => {
    secretSettings.add(schema);
    return schema;
  },
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  nonNegativeInt: (fallback: number) => z.coerce.number().int().min(0).default(fallback),
  url: (protocols: string[], fallback?: string) => {
    const schema = z.string().refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      { message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}` },
    );
    return fallback === undefined ? schema : schema.default(fallback);
  },
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  logLevel: () => z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  name: (fallback: string) =>
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, "_" and "-"')
      .default(fallback),
};

/** Where each app serves /metrics by default (METRICS_PORT; 0 turns metrics off). */
export const DEFAULT_METRICS_PORTS: Record<string, number> = {
  gateway: 9464,
  referral: 9465,
  fraud: 9466,
  reward: 9467,
  incentive: 9468,
  'catalog-marketplace': 9469,
  webhook: 9470,
};

/**
 * Settings of every app's life as a process: its Prometheus port, and how
 * long a stop (SIGTERM) may take to finish what is in flight before the
 * process exits anyway (keep it under Kubernetes'
 * terminationGracePeriodSeconds, minus the preStop pause).
 */
export function processSettings(app: string) {
  return {
    METRICS_PORT: setting.port(DEFAULT_METRICS_PORTS[app] ?? 0),
    SHUTDOWN_GRACE_MS: setting.positiveInt(15_000),
  };
}

/**
 * Settings shared by every backend service: where it listens, its own
 * MongoDB database, and the event stream.
 */
export function serviceSettings(service: string, defaultPort: number) {
  return {
    ...processSettings(service),
    PORT: setting.port(defaultPort),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: setting.logLevel(),
    MONGODB_URL: setting.url(['mongodb', 'mongodb+srv'], 'mongodb://127.0.0.1:27017'),
    // Each service owns one database: <prefix><service>, e.g. ris_referral.
    MONGODB_DB: setting.name(`ris_${service.replace(/-/g, '_')}`),
    NATS_URL: setting.url(['nats', 'tls'], 'nats://127.0.0.1:4222'),
    EVENTS_STREAM: setting.name('DOMAIN'),
    EVENTS_SUBJECT_PREFIX: setting.name('domain'),
  };
}
