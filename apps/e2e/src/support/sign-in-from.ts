import { request } from 'node:http';

export interface SignInAnswer {
  status: number;
  retryAfter: number | null;
  // The answer's JSON, read by field as ApiResponse's body is.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The cookies it set, name → value. */
  cookies: Map<string, string>;
}

/**
 * POST /console/v1/session from a source address of our choosing: the
 * loopback network is all of 127.0.0.0/8, so a connection made from
 * 127.0.0.2 is a second client address to the gateway (no proxy header,
 * nothing it has to trust).
 */
export function signInFrom(
  gatewayUrl: string,
  localAddress: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<SignInAnswer> {
  const url = new URL('/console/v1/session', gatewayUrl);
  const payload = JSON.stringify(credentials);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const cookies = new Map<string, string>();
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const eq = pair.indexOf('=');
            cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
          }
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: retryAfter ? Number(retryAfter) : null, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), cookies });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
