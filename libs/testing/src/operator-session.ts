import { randomBytes } from 'node:crypto';
import { ApiClient, adminClient, type ApiResponse } from './api-client';
import { e2eStack } from './e2e-stack';

// Answers are whatever JSON the API sent (see api-client.ts).
/* eslint-disable @typescript-eslint/no-explicit-any */

export interface TestOperator {
  id: string;
  email: string;
  password: string;
}

/** A dashboard operator made through the admin API (of the e2e stack, or of `admin`), with a password of the test's. */
export async function createOperator(options: { isAdmin?: boolean; admin?: ApiClient; email?: string } = {}): Promise<TestOperator> {
  const email = options.email ?? `op-${randomBytes(6).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const res = await (options.admin ?? adminClient()).post('/operators', { email, password, isAdmin: options.isAdmin ?? false });
  if (res.status !== 201) throw new Error(`creating an operator failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.operator.id, email, password };
}

/** Makes the operator a member of the app with the role (or changes it), through the admin API. */
export async function addMember(appId: string, operatorId: string, role: 'OWNER' | 'MANAGER' | 'VIEWER', admin: ApiClient = adminClient()): Promise<void> {
  const res = await admin.put(`/apps/${appId}/members/${operatorId}`, { role });
  if (res.status !== 200) throw new Error(`adding a member failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The `ris_session` value of a Set-Cookie answer, if it sets one. */
export function sessionCookieOf(res: ApiResponse): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const match = /^ris_session=([^;]*)/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * A browser's signed-in session, without a browser: the cookie and the
 * CSRF token the sign-in answered, sent the way the dashboard sends them.
 */
export class OperatorSession {
  constructor(
    readonly gatewayUrl: string,
    readonly cookie: string,
    readonly csrfToken: string,
    /** The sign-in answer: operator, apps, currentAppId, csrfToken. */
    readonly signedIn: any,
  ) {}

  static async signIn(email: string, password: string, gatewayUrl = e2eStack().gatewayUrl): Promise<OperatorSession> {
    const res = await new ApiClient(`${gatewayUrl}/console/v1`).post('/session', { email, password });
    const cookie = sessionCookieOf(res);
    if (res.status !== 200 || !cookie) throw new Error(`signing in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return new OperatorSession(gatewayUrl, cookie, res.body.csrfToken, res.body);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { cookie: `ris_session=${this.cookie}`, 'x-csrf-token': this.csrfToken, ...extra };
  }

  /** /console/v1 with this session. */
  get console(): ApiClient {
    return new ApiClient(`${this.gatewayUrl}/console/v1`, undefined, this.headers());
  }

  /** /api/v1 with this session, in one app. */
  api(appId: string): ApiClient {
    return new ApiClient(`${this.gatewayUrl}/api/v1`, undefined, this.headers({ 'x-app-id': appId }));
  }
}
