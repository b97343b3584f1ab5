import { e2eStack } from './e2e-stack';

// Response bodies are whatever JSON the API sent; tests assert on them field
// by field, so `any` is the honest type here.
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Plain HTTP against the real gateway; returns status, headers and parsed JSON. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token?: string,
    /** Sent with every request (a session's cookie, X-App-Id, X-CSRF-Token); a request's own headers win. */
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...(options.headers ?? {}) };
    if (this.token) headers.authorization ??= `Bearer ${this.token}`;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text, the test will say so.
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, { body, headers });
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, { body, headers });
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, { headers });
  }
}

export interface TestApp {
  appId: string;
  apiKey: string;
  /** Client for /api/v1 with this app's key. */
  api: ApiClient;
}

/** The admin API of the e2e stack. */
export function adminClient(): ApiClient {
  const stack = e2eStack();
  return new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.adminToken);
}

/** A fresh app (tenant) with its own key: test files isolate themselves this way. */
export async function createTestApp(name = 'test app'): Promise<TestApp> {
  const res = await adminClient().post('/apps', { name });
  if (res.status !== 201) throw new Error(`creating a test app failed: ${res.status} ${JSON.stringify(res.body)}`);
  const stack = e2eStack();
  return {
    appId: res.body.app.id,
    apiKey: res.body.apiKey,
    api: new ApiClient(`${stack.gatewayUrl}/api/v1`, res.body.apiKey),
  };
}
