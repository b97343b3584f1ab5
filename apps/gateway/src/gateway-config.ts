import { join } from 'node:path';
import { z } from 'zod';
import { processSettings, setting } from '@ris/config';
import { keyringSetting } from '@ris/secrets';
import { DEFAULT_LOGIN_LIMITS } from './console/sessions/login-throttle';

const serviceUrl = (port: number) => setting.url(['http', 'https'], `http://127.0.0.1:${port}`);

/** Every setting of the gateway; README "Settings" documents them. */
export const gatewaySettings = {
  ...processSettings('gateway'),
  PORT: setting.port(8080),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: setting.logLevel(),
  MONGODB_URL: setting.url(['mongodb', 'mongodb+srv'], 'mongodb://127.0.0.1:27017'),
  MONGODB_DB: setting.name('ris_gateway'),
  REDIS_URL: setting.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default('ris:'),
  ADMIN_TOKEN: setting.secret(z.string().min(16, 'must be at least 16 characters')),
  REFERRAL_SERVICE_URL: serviceUrl(50051),
  FRAUD_SERVICE_URL: serviceUrl(50052),
  REWARD_SERVICE_URL: serviceUrl(50053),
  INCENTIVE_SERVICE_URL: serviceUrl(50054),
  CATALOG_MARKETPLACE_SERVICE_URL: serviceUrl(50055),
  WEBHOOK_SERVICE_URL: serviceUrl(50056),
  RATE_LIMIT_PER_SECOND: setting.positiveInt(50),
  RATE_LIMIT_BURST: setting.positiveInt(100),
  // Behind a load balancer, use X-Forwarded-For for the client address.
  TRUST_PROXY: setting.boolean(false),
  // Master keys that encrypt kept responses (Idempotency-Key) at rest, current first; required.
  SECRETS_KEYS: keyringSetting(),
  // The built dashboard (index.html and assets/); by default next to this bundle: dist/apps/dashboard.
  DASHBOARD_DIR: z.string().min(1).default(join(__dirname, '..', 'dashboard')),
  // The referral widget's built script, style and loader; by default next to this bundle: dist/apps/gateway/embed.
  WIDGET_DIR: z.string().min(1).default(join(__dirname, 'embed')),
  // Operator sessions: ended after this long without a request, and this long after sign-in.
  SESSION_IDLE_TIMEOUT_SECONDS: setting.positiveInt(8 * 3600),
  SESSION_MAX_AGE_SECONDS: setting.positiveInt(7 * 24 * 3600),
  // The public origin of hosted links, their QR codes and the widget (https://refer.example.com); unset: the origin each request came to.
  PUBLIC_URL: setting.url(['http', 'https']).optional(),
  // Clicks of one client address on one hosted link counted per hour; past it the visitor is sent on, uncounted.
  LINK_CLICKS_PER_IP_PER_HOUR: setting.positiveInt(10),
  // Sign-in throttling (console/sessions/login-throttle.ts): failures free of delay per account and address (or known
  // device), per address, and per account from unknown devices; past them each try waits 1 s, 2 s, 4 s… up to the ceiling.
  LOGIN_FREE_FAILURES_PER_ACCOUNT_ADDRESS: setting.positiveInt(DEFAULT_LOGIN_LIMITS.freePerAccountAddress),
  LOGIN_FREE_FAILURES_PER_ADDRESS: setting.positiveInt(DEFAULT_LOGIN_LIMITS.freePerAddress),
  LOGIN_FREE_FAILURES_PER_ACCOUNT: setting.positiveInt(DEFAULT_LOGIN_LIMITS.freePerAccount),
  LOGIN_FIRST_DELAY_SECONDS: setting.positiveInt(DEFAULT_LOGIN_LIMITS.baseDelayMs / 1000),
  LOGIN_MAX_DELAY_SECONDS: setting.positiveInt(DEFAULT_LOGIN_LIMITS.maxDelayMs / 1000),
  // Invitations of members without an account (console/invitations/): how long a link works after it was made or re-sent.
  INVITATION_LIFETIME_SECONDS: setting.positiveInt(7 * 24 * 3600),
  // The SMTP server invitations are also e-mailed through (smtp://user:pass@host:587, smtps://…); unset: the link is only shown to copy.
  SMTP_URL: setting.secret(setting.url(['smtp', 'smtps']).optional()),
  // The sender of those e-mails ("Name <address>" or an address); unset: no-reply@<the SMTP server's host>.
  SMTP_FROM: z.string().min(3).optional(),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewaySettings>>;
