import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router, type Request, type Response } from 'express';
import type { ZodType } from 'zod';
import { ErrorResponse } from '../openapi/common-schemas';
import { linksObject, type ResponseLinks } from '../openapi/links';
import { z } from '../openapi/zod';
import { validationError } from './api-error';
import { errorBody, toErrorResponse } from './error-response';
import { idempotentReplays } from './gateway-metrics';
import { IDEMPOTENCY_KEY_PATTERN, IdempotencyStore } from './idempotency';

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface HandlerInput<P, Q, B> {
  appId: string;
  params: P;
  query: Q;
  body: B;
  req: Request;
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
}

type AnyObject = z.ZodObject;

export interface RouteDefinition<P extends AnyObject, Q extends AnyObject, B extends ZodType> {
  method: Method;
  /** Express path relative to the router's base, e.g. /campaigns/:campaignId */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  responses: Record<number, { description: string; schema?: ZodType; links?: ResponseLinks }>;
  /** Error statuses worth listing for this operation (400/401/429/5xx are always listed). */
  errors?: number[];
  handle: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<HandlerResult>;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body, query or path value (VALIDATION_ERROR)',
  401: 'Missing, malformed, unknown or revoked credentials',
  403: 'Not allowed for this key',
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
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
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

/**
 * Registers routes on Express and in the OpenAPI document from one
 * definition: the zod schemas that validate a request are the ones
 * documented, so the document cannot fall behind the code.
 */
export class ApiRouter {
  readonly router = Router();
  /** The methods each Express path serves, in registration order (method-not-allowed.ts answers the others). */
  readonly methodsByPath = new Map<string, Set<Method>>();

  constructor(
    private readonly registry: OpenAPIRegistry,
    private readonly options: { basePath: string; security: 'apiKey' | 'adminToken' | 'none'; idempotency?: IdempotencyStore },
  ) {}

  route<P extends AnyObject, Q extends AnyObject, B extends ZodType>(def: RouteDefinition<P, Q, B>): void {
    this.document(def);
    this.methodsByPath.set(def.path, (this.methodsByPath.get(def.path) ?? new Set()).add(def.method));
    const route = this.options.basePath + def.path;
    this.router[def.method](def.path, async (req: Request, res: Response) => {
      res.locals.route = route;
      const appId = res.locals.appId as string;
      const params = parse(def.params, req.params, 'path');
      const query = parse(def.query, req.query, 'query');
      const body = def.body ? parse(def.body, req.body, 'body') : undefined;
      const run = (operationKey: string) => def.handle({ appId, params, query, body: body as z.output<B>, req, operationKey });

      const key = req.header('idempotency-key');
      if (def.method !== 'post' || key === undefined || !this.options.idempotency) {
        const result = await run('');
        return send(res, result);
      }
      IdempotencyStore.validateKey(key);
      const started = await this.options.idempotency.begin(
        appId,
        key,
        IdempotencyStore.hashRequest(req.method, req.baseUrl + req.path, req.body),
      );
      if (started.kind === 'replay') {
        idempotentReplays.inc();
        res.setHeader('Idempotent-Replayed', 'true');
        return send(res, { status: started.status, body: started.body });
      }
      let result: HandlerResult;
      try {
        result = await run(started.operationKey);
      } catch (err) {
        const mapped = toErrorResponse(err);
        if (isRetryable(mapped)) await started.release();
        else await started.complete(mapped.status, errorBody(res.locals.requestId as string, mapped.code, mapped.message, mapped.details));
        throw err;
      }
      await started.complete(result.status, result.body);
      send(res, result);
    });
  }

  private document<P extends AnyObject, Q extends AnyObject, B extends ZodType>(def: RouteDefinition<P, Q, B>): void {
    const responses: RouteConfig['responses'] = {};
    for (const [status, response] of Object.entries(def.responses)) {
      const links = linksObject(this.options.basePath, response.links);
      responses[status] = response.schema
        ? { description: response.description, links, content: { 'application/json': { schema: response.schema } } }
        : { description: response.description, links };
    }
    const errorStatuses = new Set([400, 500, 503, ...(def.errors ?? [])]);
    if (this.options.security !== 'none') errorStatuses.add(401);
    if (this.options.security === 'apiKey') errorStatuses.add(429);
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
    this.registry.registerPath({
      method: def.method,
      path: this.options.basePath + def.path.replace(/:(\w+)/g, '{$1}'),
      tags: [def.tag],
      summary: def.summary,
      description: def.description,
      security: this.options.security === 'none' ? [] : [{ [this.options.security]: [] }],
      request: {
        params: def.params,
        query: def.query,
        headers: headers.length ? headers : undefined,
        body: def.body ? { required: true, content: { 'application/json': { schema: def.body } } } : undefined,
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

function send(res: Response, result: HandlerResult): void {
  if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}
