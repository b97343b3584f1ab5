/**
 * PENDING: endpoints the gateway is gaining while the dashboard is built
 * (the console API, the time-series read, the referral list, conversions by
 * user, flags sorted by risk with their evidence and who resolved them, a
 * reward's history), typed exactly as the shared dashboard design states
 * them. This file goes once the OpenAPI document has them: regenerate
 * src/api/schema.d.ts (`npm run dashboard:api`), delete this file, and let
 * src/api/client.ts use `paths` from schema.d.ts instead of `ApiPaths`.
 */
import type { components, paths } from './schema';

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type NoContent = { headers: { [name: string]: unknown }; content?: never };
type ErrorResponse = Json<components['schemas']['ErrorResponse']>;
/** The error answers every console and API operation may give. */
type Errors = { 400: ErrorResponse; 401: ErrorResponse; 403: ErrorResponse; 404: ErrorResponse; 409: ErrorResponse; 429: ErrorResponse; 503: ErrorResponse };
type Params<Q = never, P = never> = ([Q] extends [never] ? { query?: never } : Partial<Q> extends Q ? { query?: Q } : { query: Q }) &
  ([P] extends [never] ? { path?: never } : { path: P }) & { header?: never; cookie?: never };
type Op<Q, P, Body, Responses> = {
  parameters: Params<Q, P>;
  responses: Responses & Errors;
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: { content: { 'application/json': Body } } });
type NoOp = never;
type PageQuery = { page?: number; limit?: number };
type Pagination = components['schemas']['Pagination'];

type Role = 'OWNER' | 'MANAGER' | 'VIEWER';
type Operator = { id: string; email: string; isAdmin: boolean };
type ConsoleApp = { id: string; name: string; role: Role };
type ConsoleSession = { operator: Operator; apps: ConsoleApp[]; currentAppId: string; csrfToken: string };
type Member = { operatorId: string; email: string; role: Role; addedAt: string };
type ApiKeySummary = { id: string; prefix: string; createdAt: string; revokedAt: string | null; lastUsedAt: string | null };
type IssuedKey = { id: string; apiKey: string; prefix: string; createdAt: string };
type AuditEntry = {
  id: string;
  at: string;
  operator: { id: string; email: string };
  action: string;
  target: { type: string; id: string | null };
  summary: string;
  before: unknown;
  after: unknown;
};
type TimeseriesBucket = { start: string; referrals: number; clicks: number; conversions: number; rewardValue: number; conversionRate: number };
type Timeseries = { campaignId: string; interval: 'day' | 'hour'; from: string; to: string; buckets: TimeseriesBucket[] };
type ResolvedBy = { operatorId: string; email: string } | null;
type FraudFlag = components['schemas']['FraudFlag'] & { resolvedBy: ResolvedBy };
/** One record that shares a signal with the flagged subject within the velocity window. */
type LinkedRecord = { kind: 'REFERRAL' | 'CONVERSION' | 'CLICK'; id: string; shares: Array<'IP' | 'DEVICE' | 'EMAIL'>; at: string };
type FraudEvidence = {
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
  email: string | null;
  secondsFromClickToConversion: number | null;
  linked: LinkedRecord[];
};
type RewardMove = { from: string | null; to: string; at: string };

type SessionAnswer = { 200: Json<ConsoleSession> };
type AppPath = { appId: string };

type ConsolePaths = {
  '/console/v1/session': {
    parameters: Params;
    get: Op<never, never, never, SessionAnswer>;
    put?: NoOp;
    post: Op<never, never, { email: string; password: string }, SessionAnswer>;
    delete: Op<never, never, never, { 204: NoContent }>;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/session/app': {
    parameters: Params;
    get?: NoOp;
    put: Op<never, never, { appId: string }, SessionAnswer>;
    post?: NoOp;
    delete?: NoOp;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/session/password': {
    parameters: Params;
    get?: NoOp;
    put?: NoOp;
    post: Op<never, never, { currentPassword: string; newPassword: string }, { 204: NoContent }>;
    delete?: NoOp;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/apps/{appId}/members': {
    parameters: Params<never, AppPath>;
    get: Op<never, AppPath, never, { 200: Json<{ members: Member[] }> }>;
    put?: NoOp;
    post: Op<never, AppPath, { email: string; role: Role }, { 201: Json<{ member: Member; initialPassword?: string }> }>;
    delete?: NoOp;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/apps/{appId}/members/{operatorId}': {
    parameters: Params<never, AppPath & { operatorId: string }>;
    get?: NoOp;
    put?: NoOp;
    post?: NoOp;
    delete: Op<never, AppPath & { operatorId: string }, never, { 204: NoContent }>;
    options?: NoOp;
    head?: NoOp;
    patch: Op<never, AppPath & { operatorId: string }, { role: Role }, { 200: Json<{ member: Member }> }>;
    trace?: NoOp;
  };
  '/console/v1/apps/{appId}/keys': {
    parameters: Params<never, AppPath>;
    get: Op<never, AppPath, never, { 200: Json<{ keys: ApiKeySummary[] }> }>;
    put?: NoOp;
    post: Op<never, AppPath, never, { 201: Json<{ key: IssuedKey }> }>;
    delete?: NoOp;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/apps/{appId}/keys/{keyId}': {
    parameters: Params<never, AppPath & { keyId: string }>;
    get?: NoOp;
    put?: NoOp;
    post?: NoOp;
    delete: Op<never, AppPath & { keyId: string }, never, { 204: NoContent }>;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
  '/console/v1/apps/{appId}/audit': {
    parameters: Params<PageQuery & { operatorId?: string; action?: string }, AppPath>;
    get: Op<PageQuery & { operatorId?: string; action?: string }, AppPath, never, { 200: Json<{ entries: AuditEntry[]; pagination: Pagination }> }>;
    put?: NoOp;
    post?: NoOp;
    delete?: NoOp;
    options?: NoOp;
    head?: NoOp;
    patch?: NoOp;
    trace?: NoOp;
  };
};

type TimeseriesQuery = { campaignId: string; from: string; to: string; interval: 'day' | 'hour' };
type ReferralListQuery = PageQuery & { campaignId: string; referrerId?: string };
type ConversionListQuery = NonNullable<paths['/api/v1/conversions']['get']['parameters']['query']> & { userId?: string };
type FlagListQuery = NonNullable<paths['/api/v1/fraud/flags']['get']['parameters']['query']> & { sort?: 'riskScore'; campaignId?: string };
type ReadOnly<Q, P, R> = {
  parameters: Params<Q, P>;
  get: Op<Q, P, never, { 200: Json<R> }>;
  put?: NoOp;
  post?: NoOp;
  delete?: NoOp;
  options?: NoOp;
  head?: NoOp;
  patch?: NoOp;
  trace?: NoOp;
};
type ConversionRecord = components['schemas']['Conversion'];

type ReadPaths = {
  '/api/v1/stats/timeseries': ReadOnly<TimeseriesQuery, never, Timeseries>;
  '/api/v1/referrals': Omit<paths['/api/v1/referrals'], 'get' | 'parameters'> & {
    parameters: Params<ReferralListQuery>;
    get: Op<ReferralListQuery, never, never, { 200: Json<{ referrals: components['schemas']['Referral'][]; pagination: Pagination }> }>;
  };
  '/api/v1/conversions': Omit<paths['/api/v1/conversions'], 'get' | 'parameters'> & {
    parameters: Params<ConversionListQuery>;
    get: Op<ConversionListQuery, never, never, { 200: Json<{ conversions: ConversionRecord[]; pagination: Pagination }> }>;
  };
  '/api/v1/fraud/flags': ReadOnly<FlagListQuery, never, { flags: FraudFlag[]; pagination: Pagination }>;
  '/api/v1/fraud/flags/{flagId}': ReadOnly<never, { flagId: string }, { flag: FraudFlag & { evidence: FraudEvidence } }>;
  '/api/v1/fraud/flags/{flagId}/resolve': Omit<paths['/api/v1/fraud/flags/{flagId}/resolve'], 'post'> & {
    post: Op<never, { flagId: string }, components['schemas']['ResolveFraudFlagRequest'], { 200: Json<{ flag: FraudFlag }> }>;
  };
  '/api/v1/rewards/{rewardId}/history': ReadOnly<never, { rewardId: string }, { history: RewardMove[] }>;
};

/** The document's paths with the pending ones laid over them. */
export type ApiPaths = Omit<paths, keyof ReadPaths> & ReadPaths & ConsolePaths;
