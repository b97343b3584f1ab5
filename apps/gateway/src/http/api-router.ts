import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { once } from 'node:events';
import { Router, type Request, type Response } from 'express';
import type { ZodType } from 'zod';
import { defaultRole, roleAllows, type Principal, type Role } from '../console/access/principal';
import type { AuditRecording, AuditTarget, AuditTrail } from '../console/audit/audit-trail';
import { ErrorResponse } from '../openapi/common-schemas';
import { linksObject, type ResponseLinks } from '../openapi/links';
import { z } from '../openapi/zod';
import { ApiError, validationError } from './api-error';
import { errorBody, toErrorResponse } from './error-response';
import { idempotentReplays } from './gateway-metrics';
import { IDEMPOTENCY_KEY_PATTERN, IdempotencyStore } from './idempotency';
import { contextOf } from './request-context';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HandlerInput<P, Q, B> {
  appId: string;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** Who calls, in the app the request acts in (undefined on routes that are not about one app). */
  principal: Principal | undefined;
  /**
   * Set when a POST carries an Idempotency-Key: the services derive the
   * operation's ids from it, so a retry of a request whose outcome was
   * unknown (5xx, timeout, dropped connection) resumes or returns the same
   * operation. Empty otherwise (proto's "unset").
   */
  operationKey: string;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  /** Sent as is with this type instead of as JSON (a page, an image); the route's response says the same type. */
  contentType?: string;
  /**
   * A body sent as it is produced (an export): its first chunk is awaited
   * before the status is sent, so a failure to start is the error envelope
   * as usual; a failure after that cuts the connection, so the client never
   * takes a truncated file for a whole one.
   */
  stream?: { chunks: AsyncIterable<string>; fileName: string };
  /** For the audit log, when neither the path nor the answer's first object says what changed, or in which app. */
  audit?: { target?: AuditTarget; appId?: string };
}

type AnyObject = z.ZodObject;

/** A documented answer: JSON unless it names another media type; with the headers it sets. */
export interface RouteResponse {
  description: string;
  schema?: ZodType;
  links?: ResponseLinks;
  contentType?: string;
  /** The headers it sets, by name (optional() when not always). */
  headers?: AnyObject;
}

export interface RouteDefinition<P extends AnyObject, Q extends AnyObject, B extends ZodType> {
  method: Method;
  /** Express path relative to the router's base, e.g. /campaigns/:campaignId */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /** The JSON body; `z.object(…).optional()` for one a client may leave out (no body at all; JSON `null` is still refused). */
  body?: B;
  responses: Record<number, RouteResponse>;
  /** Error statuses worth listing for this operation (400/401/429/5xx are always listed). */
  errors?: number[];
  /**
   * The least role an operator's session needs (an API key may do anything
   * in its app). On /api/v1 every route has one: GET VIEWER, other methods
   * MANAGER unless it says more. On the console, routes about one app say it.
   */
  role?: Role;
  /** Needs no credentials (the console's sign-in). */
  public?: true;
  /** Not a change to an app's data, so not in the audit log (signing in and out, switching apps, one's own password). */
  audit?: false;
  /** The least role that may read this change in the audit log (default VIEWER: OWNER for keys and members). */
  auditReadRole?: Role;
  handle: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<HandlerResult>;
}

export interface ApiRouterOptions {
  basePath: string;
  /** apiKey: /api/v1, which also takes a session; session: the console; adminToken: /admin/v1; embedToken: the referral widget's /embed/v1. */
  security: 'apiKey' | 'adminToken' | 'session' | 'embedToken' | 'none';
  idempotency?: IdempotencyStore;
  /** Who calls, from what the middleware found and the request's path values (the console's app is in its path). */
  principal?: (req: Request, res: Response, params: unknown) => Principal | undefined | Promise<Principal | undefined>;
  /** Records the changes operators make through a session. */
  audit?: AuditTrail;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body, query or path value (VALIDATION_ERROR)',
  401: 'Missing, malformed, unknown or revoked credentials',
  403: "Not allowed: the session's role or app (FORBIDDEN), or a change without the session's CSRF token (CSRF_TOKEN_INVALID) or from another origin (ORIGIN_NOT_ALLOWED)",
  404: 'No such resource for this app',
  409: 'State conflict',
  413: 'Body larger than 1 MiB',
  415: 'Body is not JSON',
  422: 'A business rule refused the request',
  429: 'Rate limited (see Retry-After)',
  500: 'Internal error',
  503: 'A dependency is unavailable; retry',
};

function parse<T extends ZodType>(schema: T | undefined, value: unknown, where: string): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  // A body is taken as sent: none is undefined (json-body.ts), and a JSON null is not the absent body an optional one allows.
  const result = schema.safeParse(where === 'body' ? value : (value ?? {}));
  if (result.success) return result.data;
  const issues: Array<{ field: string; message: string }> = [];
  for (const issue of result.error.issues) {
    const entry = { field: [where, ...issue.path.map(String)].join('.'), message: issue.message };
    // Two checks can say the same of one value (int() and max() of a number past 2^53 − 1): once is enough.
    if (!issues.some((i) => i.field === entry.field && i.message === entry.message)) issues.push(entry);
  }
  throw validationError(
    issues.map((i) => `${i.field}: ${i.message}`).join('; '),
    { issues },
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- routes of every shape live in one map
type AnyRoute = RouteDefinition<any, any, any>;

const isParam = (segment: string | undefined) => segment?.startsWith(':') ?? false;

/** A resource's type from its path: the segment before its id, in the singular (/campaigns/:campaignId → campaign). */
function pathTarget(path: string, params: Record<string, unknown>): AuditTarget | null {
  const segments = path.split('/');
  const last = segments.at(-1);
  if (!isParam(last)) return null;
  const id = params[last!.slice(1)];
  const type = (segments.at(-2) ?? 'resource').replace(/ies$/, 'y').replace(/s$/, '');
  return typeof id === 'string' || typeof id === 'number' ? { type, id: String(id) } : null;
}

/** What a create made: the answer's first object with an id ({"campaign": {"id": …}} → campaign). */
function answerTarget(body: unknown): AuditTarget | null {
  if (!body || typeof body !== 'object') return null;
  for (const [type, value] of Object.entries(body)) {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') return { type, id };
  }
  return null;
}

/**
 * Registers routes on Express and in the OpenAPI document from one
 * definition: the zod schemas that validate a request are the ones
 * documented, so the document cannot fall behind the code. Each route's
 * role is enforced here (403 FORBIDDEN) and the changes operators make are
 * audited here, once for every route.
 */
export class ApiRouter {
  readonly router = Router();
  /** The methods each Express path serves, in registration order (method-not-allowed.ts answers the others). */
  readonly methodsByPath = new Map<string, Set<Method>>();
  /** GET routes by path: what a change's "before" is read with. */
  private readonly reads = new Map<string, AnyRoute>();

  constructor(
    private readonly registry: OpenAPIRegistry,
    private readonly options: ApiRouterOptions,
  ) {}

  /** The least role a route needs from a session, if roles apply to it. */
  private roleOf(def: AnyRoute): Role | undefined {
    return def.role ?? (this.options.security === 'apiKey' ? defaultRole(def.method) : undefined);
  }

  route<P extends AnyObject, Q extends AnyObject, B extends ZodType>(def: RouteDefinition<P, Q, B>): void {
    this.document(def);
    this.methodsByPath.set(def.path, (this.methodsByPath.get(def.path) ?? new Set()).add(def.method));
    if (def.method === 'get') this.reads.set(def.path, def);
    const needed = this.roleOf(def);
    const route = this.options.basePath + def.path;
    this.router[def.method](def.path, async (req: Request, res: Response) => {
      // The route template, for the request metrics (low cardinality).
      res.locals.route = route;
      const params = parse(def.params, req.params, 'path');
      let principal = this.options.principal?.(req, res, params);
      // Awaited only when it is a promise: an API key's request stays as it was (no extra turn).
      if (principal instanceof Promise) principal = await principal;
      if (needed && principal?.kind === 'operator' && !roleAllows(principal.role, needed)) {
        throw new ApiError(403, 'FORBIDDEN', `This needs the ${needed} role; you are ${principal.role} in app ${principal.appId}.`, {
          requiredRole: needed,
          role: principal.role,
        });
      }
      const appId = principal?.appId ?? (contextOf(res).appId as string);
      const query = parse(def.query, req.query, 'query');
      const body = def.body ? parse(def.body, req.body, 'body') : undefined;
      const input = { appId, params, query, body: body as z.output<B>, req, res, principal };
      const recording = this.audited(def, input) ? await this.beginAudit(def, input) : undefined;
      let outcome: { result: HandlerResult; replayed: boolean };
      try {
        outcome = await this.run(def, input);
      } catch (err) {
        if (recording) await (toErrorResponse(err).status >= 500 ? recording.unknown() : recording.discard());
        throw err;
      }
      const { result, replayed } = outcome;
      if (recording) {
        // A replay repeats an earlier answer: no second change to record.
        if (replayed) await recording.discard();
        else await recording.succeeded(result.body, { target: result.audit?.target ?? answerTarget(result.body), appId: result.audit?.appId });
      }
      await send(res, result);
    });
  }

  /** Runs the handler, through the Idempotency-Key store for a POST that sends one. */
  private async run(def: AnyRoute, input: Omit<HandlerInput<unknown, unknown, unknown>, 'operationKey'>): Promise<{ result: HandlerResult; replayed: boolean }> {
    const { req, res, appId } = input;
    const key = req.header('idempotency-key');
    if (def.method !== 'post' || key === undefined || !this.options.idempotency) {
      return { result: await def.handle({ ...input, operationKey: '' }), replayed: false };
    }
    IdempotencyStore.validateKey(key);
    const started = await this.options.idempotency.begin(appId, key, IdempotencyStore.hashRequest(req.method, req.baseUrl + req.path, req.body));
    if (started.kind === 'replay') {
      idempotentReplays.inc();
      res.setHeader('Idempotent-Replayed', 'true');
      return { result: { status: started.status, body: started.body }, replayed: true };
    }
    let result: HandlerResult;
    try {
      result = await def.handle({ ...input, operationKey: started.operationKey });
    } catch (err) {
      const mapped = toErrorResponse(err);
      if (isRetryable(mapped)) await started.release();
      else await started.complete(mapped.status, errorBody(contextOf(res).requestId, mapped.code, mapped.message, mapped.details));
      throw err;
    }
    await started.complete(result.status, result.body);
    return { result, replayed: false };
  }

  /**
   * Begins the audit entry of a change an operator makes through a session
   * (an API key's changes are the app's own backend, not an operator's):
   * the action, its target from the path when the path names it, and the
   * resource as its own GET route answers before the change.
   */
  private audited(def: AnyRoute, { principal, res }: { principal?: Principal; res: Response }): boolean {
    if (!this.options.audit || def.method === 'get' || def.audit === false) return false;
    return principal ? principal.kind === 'operator' : contextOf(res).operator !== undefined;
  }

  private async beginAudit(def: AnyRoute, input: Omit<HandlerInput<unknown, unknown, unknown>, 'operationKey'>): Promise<AuditRecording | undefined> {
    const { principal, res } = input;
    const operator = principal?.kind === 'operator' ? principal : contextOf(res).operator;
    if (!this.options.audit || !operator) return undefined;
    const params = (input.params ?? {}) as Record<string, unknown>;
    return this.options.audit.begin({
      appId: principal?.appId ?? null,
      operator: { operatorId: operator.operatorId, email: operator.email, isAdmin: operator.isAdmin },
      action: `${def.method.toUpperCase()} ${this.templateOf(def.path)}`,
      summary: def.summary,
      target: pathTarget(def.path, params),
      before: await this.readBefore(def, input),
      readRole: def.auditReadRole ?? 'VIEWER',
    });
  }

  /**
   * The resource a change is about, as its own GET route answers: the
   * change's path, or the path without its trailing words
   * (/fraud/flags/:flagId/resolve → GET /fraud/flags/:flagId), if a GET
   * route of one resource (ending in an id) is there. undefined when there
   * is none, or it had nothing (404).
   */
  private async readBefore(def: AnyRoute, input: Omit<HandlerInput<unknown, unknown, unknown>, 'operationKey'>): Promise<unknown> {
    const segments = def.path.split('/');
    while (segments.length > 1 && !isParam(segments.at(-1))) segments.pop();
    const read = segments.length > 1 ? this.reads.get(segments.join('/')) : undefined;
    if (!read) return undefined;
    try {
      const answer = await read.handle({
        ...input,
        params: parse(read.params, input.req.params, 'path'),
        query: parse(read.query, {}, 'query'),
        body: undefined,
        operationKey: '',
      });
      return answer.body;
    } catch {
      return undefined;
    }
  }

  private templateOf(path: string): string {
    return this.options.basePath + path.replace(/:(\w+)/g, '{$1}');
  }

  private document<P extends AnyObject, Q extends AnyObject, B extends ZodType>(def: RouteDefinition<P, Q, B>): void {
    const responses: RouteConfig['responses'] = {};
    for (const [status, response] of Object.entries(def.responses)) {
      const links = linksObject(this.options.basePath, response.links);
      const headers = response.headers;
      responses[status] = response.schema
        ? { description: response.description, links, headers, content: { [response.contentType ?? 'application/json']: { schema: response.schema } } }
        : { description: response.description, links, headers };
    }
    const { security } = this.options;
    const credentials = security !== 'none' && !def.public;
    const errorStatuses = new Set([400, 500, 503, ...(def.errors ?? [])]);
    if (credentials) errorStatuses.add(401);
    // A session can always be refused: its role, its app, or (a change) its CSRF token.
    if (credentials && (security === 'apiKey' || security === 'session')) errorStatuses.add(403);
    if (security === 'apiKey') errorStatuses.add(429);
    if (def.body) {
      errorStatuses.add(413);
      errorStatuses.add(415);
    }
    if (def.method === 'post' && this.options.idempotency) errorStatuses.add(409);
    for (const status of [...errorStatuses].sort()) {
      responses[String(status)] ??= {
        description: ERROR_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorResponse } },
      };
    }
    const headers: ZodType[] = [];
    if (def.method === 'post' && this.options.idempotency) {
      headers.push(
        z
          .string()
          .optional()
          .openapi({
            param: { name: 'Idempotency-Key', in: 'header', description: 'Replays the first response for 24 h. 1 to 255 printable ASCII characters (no spaces).' },
            minLength: 1,
            maxLength: 255,
            pattern: IDEMPOTENCY_KEY_PATTERN,
          }),
      );
    }
    const role = this.roleOf(def);
    const roleText = role
      ? security === 'apiKey'
        ? `**Role:** ${role} or above with a dashboard session (an API key may call it).`
        : `**Role:** ${role} or above in the app.`
      : undefined;
    this.registry.registerPath({
      method: def.method,
      path: this.templateOf(def.path),
      tags: [def.tag],
      summary: def.summary,
      description: [def.description, roleText].filter(Boolean).join('\n\n') || undefined,
      security: !credentials ? [] : security === 'apiKey' ? [{ apiKey: [] }, { session: [] }] : [{ [security]: [] }],
      ...(role ? { 'x-required-role': role } : {}),
      request: {
        params: def.params,
        query: def.query,
        headers: headers.length ? headers : undefined,
        body: def.body
          ? def.body instanceof z.ZodOptional
            ? { required: false, content: { 'application/json': { schema: def.body.unwrap() as ZodType } } }
            : { required: true, content: { 'application/json': { schema: def.body } } }
          : undefined,
      },
      responses,
    });
  }
}

/**
 * Failures whose outcome is unknown or that say "not now": never kept as the
 * key's answer, so a retry with the key runs the operation again (and the
 * services resume it). A transient 409 CONFLICT is one: the operation was
 * busy elsewhere, not refused.
 */
function isRetryable(mapped: { status: number; code: string }): boolean {
  return mapped.status >= 500 || mapped.status === 429 || mapped.code === 'CONFLICT';
}

async function send(res: Response, result: HandlerResult): Promise<void> {
  if (result.stream) return sendStream(res, result, result.stream);
  if (result.body === undefined) res.status(result.status).end();
  else if (result.contentType) res.status(result.status).type(result.contentType).send(result.body);
  else res.status(result.status).json(result.body);
}

async function sendStream(res: Response, result: HandlerResult, stream: NonNullable<HandlerResult['stream']>): Promise<void> {
  const chunks = stream.chunks[Symbol.asyncIterator]();
  let next = await chunks.next();
  res.status(result.status).type(result.contentType ?? 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${stream.fileName}"`);
  try {
    for (; !next.done; next = await chunks.next()) {
      // The client reads slower than the services answer: wait for it, so that nothing piles up in memory.
      if (!res.write(next.value)) await once(res, 'drain');
      if (res.destroyed) return;
    }
    res.end();
  } catch (err) {
    res.destroy();
    throw err;
  }
}
