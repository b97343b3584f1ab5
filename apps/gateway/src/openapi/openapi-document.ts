import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { Currency } from './money-fields';

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key of your app: `Authorization: Bearer rk_live_…`',
  });
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'ris_session',
    description:
      'A dashboard session: the HttpOnly cookie `ris_session` that `POST /console/v1/session` sets. On /api/v1 it also needs ' +
      '`X-App-Id: <appId>` naming an app the operator is a member of (any app for an instance administrator), and the operator\'s ' +
      'role there must allow the operation (`x-required-role`; 403 FORBIDDEN otherwise). Every change made with a session ' +
      '(POST, PUT, PATCH, DELETE) sends the session\'s `csrfToken` as `X-CSRF-Token` (403 CSRF_TOKEN_INVALID otherwise) and no ' +
      'foreign `Origin` (403 ORIGIN_NOT_ALLOWED). Answers made with a session carry `Cache-Control: no-store`.',
  });
  registry.registerComponent('securitySchemes', 'embedToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A referral widget\'s token (`POST /api/v1/embed-tokens`): `Authorization: Bearer et1.…`. Read-only, one user of one campaign, ' +
      'minutes long; /embed/v1 takes nothing else (no API key), and nothing else takes it.',
  });
  registry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The ADMIN_TOKEN setting of the deployment.',
  });
  // Before any use: the first use of a named schema would otherwise be written as the component, with that use's description.
  registry.register('Currency', Currency);
  return registry;
}

export function buildOpenApiDocument(registry: OpenAPIRegistry) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Referral and Incentive Service API',
      version: '1.0.0',
      description: [
        'Referral campaigns (codes, clicks, conversions, fraud checks, rewards) and a gamification engine.',
        '',
        '**Conventions.** JSON in and out; timestamps are ISO 8601 UTC with milliseconds; ids are opaque strings.',
        'Every failure answers `{"error": {code, message, details?, requestId}}`. Every response carries `X-Request-Id`.',
        '400 `VALIDATION_ERROR` means the request breaks a rule of this document (`details.issues` names each field); a',
        'well-formed request that stored state, the clock or the outside world refuses is 422 with a code of its own. A method',
        'a path does not serve is 405 `METHOD_NOT_ALLOWED` with `Allow`; OPTIONS answers 204 with `Allow`.',
        '',
        '**Inputs.** Every string, number and list has the bounds stated here. Ids, codes and keys are 1 to 128 characters',
        '(Idempotency and event keys 255) without control characters or white space at either end; names are not blank and',
        'have no control characters; free text keeps tab and line breaks only. Amounts, costs and coin/XP/token counts are at',
        'most 10^9, counts at most 2^31−1, days at most 3650. Bodies must be valid Unicode (no unpaired surrogate, RFC 7493)',
        'and nest at most 64 levels; `metadata` at most 32 levels and 16 KiB.',
        '',
        'Lists take `page` (default 1) and `limit` (default 25, 1..100) and answer with a `pagination` object.',
        'Every POST accepts an `Idempotency-Key` header (1 to 255 printable ASCII characters): the same key and body within 24 h replays',
        'the first response (with `Idempotent-Replayed: true`); the same key with another body is `409 IDEMPOTENCY_KEY_REUSED`; while the',
        'first still runs, `409 CONFLICT`. A first try that ended in a 5xx, a 429 or a `409 CONFLICT` is not kept: retrying with the key',
        'runs the request again as the same operation (what it creates or moves is identified by the key), so a retry after an unknown',
        'outcome (a 503, a timeout, a dropped connection) completes or returns the first try, never makes a second purchase, conversion or event.',
        'Requests are limited per app (default 50/s, burst 100): `429 RATE_LIMITED` with `Retry-After`.',
        '',
        '**Callers.** An app\'s backend calls /api/v1 with its API key (`Authorization: Bearer rk_live_…`): everything of its app.',
        'The operator dashboard calls it with a session (the `session` scheme: cookie, `X-App-Id` and, for changes, `X-CSRF-Token`),',
        'limited by the operator\'s role in the app: each operation states the least role it needs (`x-required-role`: reads VIEWER,',
        'changes MANAGER, webhook endpoint changes OWNER). Every change made with a session is in the app\'s audit log',
        '(`GET /console/v1/apps/{appId}/audit`). /console/v1 is the dashboard\'s own API (tag Console).',
      ].join('\n'),
    },
    servers: [{ url: '/' }],
  });
}
