/** One field the API refused, named as in the form that sent it (`levels.0.amount`). */
export interface FieldIssue {
  field: string;
  message: string;
}

interface ErrorEnvelope {
  error?: { code?: string; message?: string; requestId?: string; details?: { issues?: Array<{ field?: unknown; message?: unknown }> } };
}

/** The API's error envelope (`{error: {code, message, details?, requestId}}`) as a thrown error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly issues: FieldIssue[],
    /** From Retry-After on a 429: how long to wait. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static from(response: Response, body: unknown): ApiError {
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as ErrorEnvelope;
    const issues = (envelope.error?.details?.issues ?? [])
      .filter((i): i is { field: string; message: string } => typeof i.field === 'string' && typeof i.message === 'string')
      // The gateway names a body field `body.<path>`; the form knows it as `<path>`.
      .map((i) => ({ field: i.field.replace(/^body\./, ''), message: i.message }));
    const retryAfter = Number(response.headers.get('Retry-After'));
    return new ApiError(
      response.status,
      envelope.error?.code ?? `HTTP_${response.status}`,
      envelope.error?.message ?? (response.statusText || `The server answered ${response.status}.`),
      envelope.error?.requestId ?? null,
      issues,
      response.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
    );
  }

  /** What a person is told: the API's message, and when to try again after a 429. */
  get userMessage(): string {
    return this.retryAfterSeconds !== null ? `${this.message} Try again in ${this.retryAfterSeconds} s.` : this.message;
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The data of a successful call; the API's error, thrown, otherwise. */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection and try again.', null, [], null);
  }
  if (!answer.response.ok) throw ApiError.from(answer.response, answer.error);
  return answer.data as T;
}

/** The message to show for any error a call threw. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.userMessage;
  return err instanceof Error ? err.message : String(err);
}
