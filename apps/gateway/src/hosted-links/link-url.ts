import type { Request } from 'express';

/**
 * The origin hosted links are built on: PUBLIC_URL when set (what a
 * deployment behind a proxy or CDN should do), else the origin the request
 * came to (its Host, and with TRUST_PROXY its X-Forwarded-Host and -Proto).
 */
export function publicOrigin(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${req.protocol}://${req.host}`;
}

/** The hosted link of a referral code. */
export const hostedLinkUrl = (origin: string, code: string) => `${origin}/r/${encodeURIComponent(code)}`;

export const UTM_PARAMETERS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmParameters = Partial<Record<(typeof UTM_PARAMETERS)[number], string>>;

/**
 * Where a hosted link sends its visitor: the campaign's landing URL with
 * `ref=<code>` and the link's UTM parameters (which replace the landing
 * URL's own of the same name); its other query parameters and fragment stay.
 */
export function landingLocation(landingUrl: string, code: string, utm: UtmParameters): string {
  const url = new URL(landingUrl);
  url.searchParams.set('ref', code);
  for (const name of UTM_PARAMETERS) {
    const value = utm[name];
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}
