export { ReferralIncentiveClient } from './client';
export { ApiError, NetworkError, RequestTimeoutError, RisError, type KnownErrorCode } from './errors';
export { paginate, type Paged } from './pagination';
export { type RetryOptions } from './retry-policy';
export { type ClientOptions, type PostOptions, type RequestOptions } from './transport';
export { type Body, type ErrorEnvelope, type Path, type Query, type Result, type Schemas } from './types';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks';
export type { components, paths } from './generated/openapi';
