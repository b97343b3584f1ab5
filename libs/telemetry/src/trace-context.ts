import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span } from '@opentelemetry/api';
import { tracingEnabled } from './tracing';

export { SpanKind };

const tracer = () => trace.getTracer('ris');

/**
 * The current trace context as W3C headers (traceparent, tracestate), to
 * send with a call or store with work that runs later (an event waiting in
 * its document, a webhook delivery). Empty when not tracing.
 */
export function traceHeaders(): Record<string, string> {
  if (!tracingEnabled()) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Just the traceparent of traceHeaders(), or undefined. */
export function currentTraceparent(): string | undefined {
  return tracingEnabled() ? traceHeaders().traceparent : undefined;
}

export interface SpanOptions {
  kind: SpanKind;
  /**
   * Where the span continues a trace that came from elsewhere: the headers
   * of a call, or a stored traceparent. Without it, the current context.
   */
  parent?: { get(key: string): string | null | undefined } | string;
  attributes?: Attributes;
}

/**
 * Runs fn in a new span (a child of options.parent or of the current
 * context), ending it when fn settles and marking it failed when fn
 * throws. When tracing is off, just runs fn.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span?: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return fn();
  const parent = parentContext(options.parent);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}

function parentContext(parent: SpanOptions['parent']) {
  if (parent === undefined) return context.active();
  if (typeof parent === 'string') return propagation.extract(ROOT_CONTEXT, { traceparent: parent });
  return propagation.extract(ROOT_CONTEXT, parent, {
    keys: () => ['traceparent', 'tracestate'],
    get: (carrier, key) => carrier.get(key) ?? undefined,
  });
}
