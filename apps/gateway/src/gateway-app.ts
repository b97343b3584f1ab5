import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { metricsEnabled } from '@ris/telemetry';
import { EnvelopeCipher } from '@ris/secrets';
import { consolePrincipal } from './console/access/console-principal';
import { consoleAppRoutes } from './console/apps/console-app-routes';
import { auditRoutes } from './console/audit/audit-routes';
import { AuditTrail } from './console/audit/audit-trail';
import { InvitationDelivery } from './console/invitations/invitation-delivery';
import { InvitationGuesses } from './console/invitations/invitation-guesses';
import { invitationLinkRoutes } from './console/invitations/invitation-link-routes';
import { InvitationMailer } from './console/invitations/invitation-mail';
import { invitationRoutes } from './console/invitations/invitation-routes';
import { MemberInvitations } from './console/invitations/member-invitations';
import { keyRoutes } from './console/keys/key-routes';
import { AppMembers } from './console/members/app-members';
import { memberRoutes } from './console/members/member-routes';
import { OperatorDirectory } from './console/operators/operator-directory';
import { consoleSession } from './console/sessions/console-session';
import { KnownDevices } from './console/sessions/known-devices';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from './console/sessions/login-throttle';
import { sessionRoutes } from './console/sessions/session-routes';
import { SessionStore } from './console/sessions/session-store';
import { dashboardRoutes } from './dashboard/serve-dashboard';
import { authenticateEmbed } from './embed/embed-access';
import { EMBED_API_BASE, embedApiRoutes } from './embed/embed-api-routes';
import { EmbedTokens } from './embed/embed-token';
import { embedTokenRoutes } from './embed/embed-token-routes';
import { EMBED_BASE, widgetRoutes } from './embed/widget-page';
import type { GatewayConfig } from './gateway-config';
import { accessLog } from './http/access-log';
import { ApiRouter } from './http/api-router';
import { authenticateAdmin, authenticateApi } from './http/authenticate';
import { errorHandler, notFoundHandler } from './http/error-response';
import { httpMetrics } from './http/gateway-metrics';
import { hostedLinkHeaders, hostedLinkRoutes, LINKS_BASE } from './hosted-links/hosted-link-routes';
import { publicOrigin } from './hosted-links/link-url';
import { LinkClickLimit } from './hosted-links/link-click-limit';
import { IdempotencyStore } from './http/idempotency';
import { jsonBody } from './http/json-body';
import { methodGuard } from './http/method-not-allowed';
import { rateLimit } from './http/rate-limit';
import { contextOf } from './http/request-context';
import { requestId } from './http/request-id';
import { securityHeaders } from './http/security-headers';
import { docsPage } from './openapi/docs-page';
import { buildOpenApiDocument, createRegistry } from './openapi/openapi-document';
import { adminRoutes } from './routes/admin';
import { adminOperatorRoutes } from './routes/admin-operators';
import { campaignRoutes } from './routes/campaigns';
import { catalogRoutes } from './routes/catalog';
import { conversionRoutes } from './routes/conversions';
import { fraudFlagRoutes } from './routes/fraud-flags';
import { healthRoutes } from './routes/health';
import { incentiveActionRoutes } from './routes/incentive-actions';
import { incentiveBadgeRoutes } from './routes/incentive-badges';
import { incentiveBalanceRoutes } from './routes/incentive-balances';
import { incentiveStatsRoutes } from './routes/incentive-stats';
import { incentiveEventRoutes } from './routes/incentive-events';
import { incentiveLeaderboardRoutes } from './routes/incentive-leaderboard';
import { incentiveLevelRoutes } from './routes/incentive-levels';
import { incentiveMilestoneRoutes } from './routes/incentive-milestones';
import { incentiveBoostRoutes } from './routes/incentive-boosts';
import { incentiveStreakRoutes } from './routes/incentive-streaks';
import { incentiveSettingsRoutes } from './routes/incentive-settings';
import { STRIPE_EVENTS_BASE, integrationRoutes, stripeEventsEndpoint } from './routes/integrations';
import { marketplaceRoutes } from './routes/marketplace';
import { payoutRoutes } from './routes/payouts';
import { purchaseRoutes } from './routes/purchases';
import { reversalRoutes } from './routes/reversals';
import { referralRoutes } from './routes/referrals';
import { rewardRoutes } from './routes/rewards';
import { statsRoutes } from './routes/stats';
import { participantRoutes } from './routes/participants';
import { ParticipantPages } from './people/participant-pages';
import { webhookRoutes } from './routes/webhooks';
import type { ServiceClients } from './service-clients';
import { AppDirectory } from './tenancy/app-directory';

export const API_BASE = '/api/v1';
export const ADMIN_BASE = '/admin/v1';
export const CONSOLE_BASE = '/console/v1';
export const DASHBOARD_BASE = '/dashboard';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Connection;
  redis: Redis;
  clients: ServiceClients;
}

/** The Express app: middleware order, the four routers, the dashboard and the OpenAPI document. */
export function createGatewayApp({ config, logger, db, redis, clients }: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: Express would hash every JSON answer for it, and the API
  // promises no conditional requests (its answers change with every write).
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestId);
  app.use(accessLog(logger));
  if (metricsEnabled()) app.use(httpMetrics);

  const registry = createRegistry();
  const directory = new AppDirectory(db, logger);
  const operators = new OperatorDirectory(db);
  const members = new AppMembers(db);
  const audit = new AuditTrail(db, logger);
  const sessions = new SessionStore(redis, config.REDIS_KEY_PREFIX, {
    idleMs: config.SESSION_IDLE_TIMEOUT_SECONDS * 1000,
    maxAgeMs: config.SESSION_MAX_AGE_SECONDS * 1000,
  });
  const loginLimits = {
    ...DEFAULT_LOGIN_LIMITS,
    freePerAccountAddress: config.LOGIN_FREE_FAILURES_PER_ACCOUNT_ADDRESS,
    freePerAddress: config.LOGIN_FREE_FAILURES_PER_ADDRESS,
    freePerAccount: config.LOGIN_FREE_FAILURES_PER_ACCOUNT,
    baseDelayMs: config.LOGIN_FIRST_DELAY_SECONDS * 1000,
    maxDelayMs: config.LOGIN_MAX_DELAY_SECONDS * 1000,
  };
  const throttle = new LoginThrottle(redis, config.REDIS_KEY_PREFIX, loginLimits);
  const devices = new KnownDevices(config.SECRETS_KEYS);
  const invitations = new MemberInvitations(db, config.INVITATION_LIFETIME_SECONDS * 1000);
  // An invitation's link opens the dashboard's page for it, on the public origin (PUBLIC_URL, else the request's).
  const delivery = new InvitationDelivery(
    new InvitationMailer({ smtpUrl: config.SMTP_URL, from: config.SMTP_FROM }, logger),
    directory,
    (req, token) => `${publicOrigin(req, config.PUBLIC_URL)}${DASHBOARD_BASE}/invite/${token}`,
  );
  // Unknown invitation links slow their address as failed sign-ins do (the per-address figure and the same delays).
  const guesses = new InvitationGuesses(redis, config.REDIS_KEY_PREFIX, loginLimits.freePerAddress, loginLimits);

  const ops = new ApiRouter(registry, { basePath: '', security: 'none' });
  healthRoutes(ops, { db, redis, clients });

  const links = new ApiRouter(registry, { basePath: LINKS_BASE, security: 'none' });
  hostedLinkRoutes(links, {
    clients,
    limit: new LinkClickLimit(redis, { perHour: config.LINK_CLICKS_PER_IP_PER_HOUR, keyPrefix: config.REDIS_KEY_PREFIX }, logger),
    publicUrl: config.PUBLIC_URL,
    logger,
  });

  const admin = new ApiRouter(registry, { basePath: ADMIN_BASE, security: 'adminToken' });
  adminRoutes(admin, directory);
  adminOperatorRoutes(admin, { operators, members, sessions });

  const consoleApi = new ApiRouter(registry, { basePath: CONSOLE_BASE, security: 'session', principal: consolePrincipal(members), audit });
  sessionRoutes(consoleApi, { operators, members, sessions, throttle, devices });
  consoleAppRoutes(consoleApi, { directory, members });
  memberRoutes(consoleApi, { members, operators, invitations, delivery });
  invitationRoutes(consoleApi, { invitations, delivery });
  invitationLinkRoutes(consoleApi, { invitations, operators, members, sessions, devices, throttle, audit, logger, guesses, directory });
  keyRoutes(consoleApi, directory);
  auditRoutes(consoleApi, audit);

  const idempotency = new IdempotencyStore(db, new EnvelopeCipher(config.SECRETS_KEYS));
  const api = new ApiRouter(registry, {
    basePath: API_BASE,
    security: 'apiKey',
    idempotency,
    principal: (_req, res) => contextOf(res).principal,
    audit,
  });
  campaignRoutes(api, clients);
  referralRoutes(api, clients);
  incentiveActionRoutes(api, clients);
  incentiveEventRoutes(api, clients);
  incentiveBalanceRoutes(api, clients);
  incentiveLevelRoutes(api, clients);
  incentiveBadgeRoutes(api, clients);
  incentiveMilestoneRoutes(api, clients);
  incentiveStreakRoutes(api, clients);
  incentiveBoostRoutes(api, clients);
  incentiveSettingsRoutes(api, clients);
  incentiveLeaderboardRoutes(api, clients);
  incentiveStatsRoutes(api, clients);
  conversionRoutes(api, clients);
  purchaseRoutes(api, clients);
  reversalRoutes(api, clients);
  statsRoutes(api, clients);
  participantRoutes(api, new ParticipantPages(clients));
  rewardRoutes(api, clients);
  payoutRoutes(api, clients);
  fraudFlagRoutes(api, clients);
  webhookRoutes(api, clients);
  integrationRoutes(api, clients, config.PUBLIC_URL);
  catalogRoutes(api, clients);
  marketplaceRoutes(api, clients);
  const embedTokens = new EmbedTokens(config.SECRETS_KEYS);
  embedTokenRoutes(api, clients, embedTokens, config.PUBLIC_URL);

  // The referral widget's reads: an embed token only.
  const embed = new ApiRouter(registry, { basePath: EMBED_API_BASE, security: 'embedToken' });
  embedApiRoutes(embed, clients, config.PUBLIC_URL);
  // Where Stripe posts: public (its signature is the credential, over the exact bytes its own body reader keeps).
  const stripeEvents = stripeEventsEndpoint(registry, clients);

  const openApiDocument = buildOpenApiDocument(registry);

  app.use(methodGuard(ops), ops.router);
  app.get(`${API_BASE}/openapi.json`, (_req, res) => {
    res.json(openApiDocument);
  });
  app.use('/docs', docsPage(`${API_BASE}/openapi.json`));
  app.use(DASHBOARD_BASE, dashboardRoutes(config.DASHBOARD_DIR));
  app.use(LINKS_BASE, hostedLinkHeaders, methodGuard(links), links.router);
  app.use(ADMIN_BASE, authenticateAdmin(config.ADMIN_TOKEN), methodGuard(admin), jsonBody, admin.router);
  // The method check first: a method no console path serves is 405 with Allow, signed in or not.
  app.use(CONSOLE_BASE, securityHeaders, methodGuard(consoleApi), consoleSession(sessions), jsonBody, consoleApi.router);
  // One bucket per app, which its keys, its operators' sessions and its users' widgets draw from.
  const appRateLimit = rateLimit(redis, { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST, keyPrefix: config.REDIS_KEY_PREFIX }, logger);
  app.use(EMBED_API_BASE, methodGuard(embed), authenticateEmbed(embedTokens), appRateLimit, embed.router);
  app.use(EMBED_BASE, widgetRoutes(embedTokens, config.WIDGET_DIR));
  // Stripe's posts carry no key: a bucket per integration (the path's first segment), at an app's rate, so a flood at
  // one endpoint (forged or not: each costs an integration read and a signature check) never reaches the services.
  const stripeRateLimit = rateLimit(
    redis,
    { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST, keyPrefix: config.REDIS_KEY_PREFIX, bucketOf: (req) => `stripe:${req.path.split('/')[1] ?? ''}` },
    logger,
  );
  app.use(STRIPE_EVENTS_BASE, stripeRateLimit, ...stripeEvents);
  app.use(
    API_BASE,
    authenticateApi(directory, sessions, members),
    appRateLimit,
    methodGuard(api),
    jsonBody,
    api.router,
  );
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
