import { z } from 'zod';
import { setting } from '@ris/config';
import { keyringSetting } from '@ris/secrets';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './dispatch/backoff-schedule';

const retrySchedule = z
  .string()
  .default(DEFAULT_RETRY_SCHEDULE)
  .transform((text, ctx) => {
    try {
      return parseRetrySchedule(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be comma-separated seconds, e.g. 5,300,1800: ${(err as Error).message}` });
      return z.NEVER;
    }
  });

const THREE_DAYS_MS = 3 * 24 * 3600 * 1000;

/** The webhook service's own settings (README "Settings"), validated at start-up. */
export const webhookSettings = {
  // Off in production: an endpoint may not point into the deployment's network.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: setting.boolean(false),
  // Per attempt, from DNS lookup to the last byte read.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  // An endpoint failing without a success for this long is disabled.
  WEBHOOK_DISABLE_AFTER_MS: setting.positiveInt(THREE_DAYS_MS),
  // Attempts in this process, all endpoints together, from their HTTP request until their outcome is stored
  // (outcomes are stored in groups, so a busy dispatcher has many waiting for the next group's write).
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(256),
  // HTTP requests in flight to one endpoint: a slow receiver holds at most this many slots.
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(100).default(4),
  // How often the dispatcher looks for due retries (new deliveries wake it at once).
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  // Finished deliveries and their attempt log are removed after this many days.
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Master keys that encrypt the endpoints' signing secrets at rest (libs/secrets), current first; required.
  SECRETS_KEYS: keyringSetting(),
};

export type WebhookSettings = z.infer<z.ZodObject<typeof webhookSettings>>;
