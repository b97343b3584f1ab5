import type { DescService } from '@bufbuild/protobuf';
import { createContextKey, type HandlerContext, type Interceptor, type ServiceImpl } from '@connectrpc/connect';
import { requiredField } from './request-fields';

/** The app a call acts for, once the tenant interceptor has read it from the request's app_id. */
const TENANT = createContextKey<string | undefined>(undefined, { description: 'the app a call acts for' });

/**
 * The app this call acts for. Only for methods of a service registered with
 * a `tenant` declaration, and not among its unscoped methods: anywhere else
 * this is a bug (thrown as such, a bare Internal error).
 */
export function tenantOf(ctx: HandlerContext): string {
  const appId = ctx.values.get(TENANT);
  if (appId === undefined) throw new Error(`${ctx.service.typeName}.${ctx.method.name} has no tenant: it is not scoped to one app`);
  return appId;
}

/**
 * Methods that do not act for one app, each with why (a batch of many
 * apps' items, each carrying its own app_id; a system call).
 */
export type UnscopedMethods<T extends DescService> = Partial<Record<keyof ServiceImpl<T>, string>>;

/**
 * Reads and checks `app_id` of every call of `service` but the unscoped
 * ones (trimmed; blank is InvalidArgument "appId is required", as
 * requiredField always answered) and puts it into the call's context, where
 * handlers take it with tenantOf(ctx). Declared when the service is built:
 * a scoped method whose request has no app_id fails at start-up.
 */
export function tenantInterceptor<T extends DescService>(service: T, unscoped: UnscopedMethods<T>): Interceptor {
  const skipped = new Set<string>(Object.keys(unscoped));
  for (const method of service.methods) {
    if (skipped.has(method.localName)) continue;
    const oneRequest = method.methodKind === 'unary' || method.methodKind === 'server_streaming';
    if (!oneRequest || !method.input.fields.some((field) => field.localName === 'appId')) {
      throw new Error(`${service.typeName}.${method.name} is not a call of one request with app_id: declare it unscoped, with why`);
    }
  }
  for (const name of skipped) {
    if (!service.methods.some((method) => method.localName === name)) throw new Error(`${service.typeName} has no method ${name}`);
  }
  const scope = (req: { contextValues: { set: (key: typeof TENANT, value: string) => unknown } }, message: unknown) =>
    // Every scoped method's request has app_id (checked above).
    req.contextValues.set(TENANT, requiredField((message as { appId: string }).appId, 'appId'));
  return (next) => async (req) => {
    if (skipped.has(req.method.localName)) return next(req);
    if (!req.stream) {
      scope(req, req.message);
      return next(req);
    }
    // A server-streaming call: its one request is read first, then handed on as it came.
    const [message] = await firstOf(req.message);
    scope(req, message);
    return next({ ...req, message: once(message) });
  };
}

/** The first message of a request stream (a server-streaming call sends one). */
async function firstOf<M>(messages: AsyncIterable<M>): Promise<[M]> {
  for await (const message of messages) return [message];
  throw new Error('the call sent no request');
}

async function* once<M>(message: M): AsyncIterable<M> {
  yield message;
}
