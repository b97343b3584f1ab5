import { Code, ConnectError } from '@connectrpc/connect';
import type { RequestHandler, Response } from 'express';
import { CampaignEffectiveStatus, CampaignStatus, type CampaignSummary, type ResolveReferralLinkResponse } from '@ris/contracts';
import type { Logger } from '@ris/logging';
import type { ApiRouter } from '../http/api-router';
import { id } from '../openapi/common-schemas';
import { intFromQuery } from '../openapi/query-values';
import { lineText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';
import { deviceIdOf } from './device-cookie';
import type { LinkClickLimit } from './link-click-limit';
import { LINK_PAGE_CSP, linkNotFoundPage } from './link-pages';
import { UTM_PARAMETERS, hostedLinkUrl, landingLocation, publicOrigin, type UtmParameters } from './link-url';
import { qrPng, qrSvg } from './qr-code';
import { uncountedReason } from './uncounted-visits';

export const LINKS_BASE = '/r';

export interface HostedLinkDeps {
  clients: ServiceClients;
  limit: LinkClickLimit;
  /** PUBLIC_URL: the origin links and QR codes are built on (else the request's). */
  publicUrl: string | undefined;
  logger: Logger;
}

const TAG = 'Hosted links';
const codeParams = z.object({ code: id('Referral code (case-insensitive)') });

const utmQuery = Object.fromEntries(
  UTM_PARAMETERS.map((name) => [name, lineText(500).optional().openapi({ description: `Passed on to the landing URL as \`${name}\`` })]),
) as Record<(typeof UTM_PARAMETERS)[number], z.ZodOptional<z.ZodString>>;

const HtmlPage = z.string().openapi({ description: 'A short HTML page' });

/** Whether the link's campaign takes referrals now: ACTIVE and inside its schedule, the rule of new referrals and conversions. */
function campaignRunning(campaign: CampaignSummary | undefined): boolean {
  if (!campaign) return false;
  // A referral service one release behind sends no effective status: its status is what it enforces.
  if (campaign.effectiveStatus === CampaignEffectiveStatus.UNSPECIFIED) return campaign.status === CampaignStatus.ACTIVE;
  return campaign.effectiveStatus === CampaignEffectiveStatus.ACTIVE;
}

/** Headers of every /r answer: no shared cache keeps them, no search engine indexes them, no script runs in them. */
export const hostedLinkHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', LINK_PAGE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  next();
};

/**
 * The public hosted links of referral codes (no API key: anyone with the
 * link follows it): GET /r/{code} records the click the way POST /clicks
 * does (the same ClickBatch, RecordClicks, counters, fraud signals, event
 * and webhooks) and sends the visitor to the campaign's landing URL; the
 * link's QR code as SVG or PNG.
 */
export function hostedLinkRoutes(links: ApiRouter, { clients, limit, publicUrl, logger }: HostedLinkDeps): void {
  /** The code's referral, app and campaign; null for a code no app holds. */
  async function resolve(code: string): Promise<ResolveReferralLinkResponse | null> {
    try {
      return await clients.referral.resolveReferralLink({ referralCode: code });
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.NotFound) return null;
      throw err;
    }
  }

  const notFoundPage = (res: Response, reason: Parameters<typeof linkNotFoundPage>[0]) => {
    res.setHeader('Cache-Control', 'no-store');
    return { status: 404, contentType: 'text/html', body: linkNotFoundPage(reason) };
  };

  links.route({
    method: 'get',
    path: '/:code',
    tag: TAG,
    summary: 'Follow a hosted referral link',
    description: [
      "Public: no credentials. Sends the visitor to the campaign's `landingUrl` with `ref=<code>` and the link's UTM parameters, and records",
      'the click as `POST /clicks` would (same counters, fraud signals, `referral.clicked` event and webhooks) with the visitor\'s address,',
      'user agent and a first-party device cookie (`ris_device`, set at the first visit).',
      '',
      'Sent on but **not counted**: HEAD requests, browser prefetches, known crawlers and link unfurlers (search engines, chat and social',
      "apps' previewers), a visitor without a user agent, clicks of an address on one link past `LINK_CLICKS_PER_IP_PER_HOUR`, and every",
      'visit while the campaign takes no referrals (its `effectiveStatus` is not ACTIVE: paused, ended, or outside its schedule). An unknown code, or a campaign without a landing URL, answers a plain 404 page.',
    ].join('\n'),
    params: codeParams,
    query: z.object(utmQuery),
    responses: {
      302: {
        description: 'To the landing URL',
        headers: z.object({
          Location: z.string().openapi({ description: 'The landing URL with `ref` and the UTM parameters', format: 'uri' }),
          'Set-Cookie': z.string().optional().openapi({ description: 'The device cookie `ris_device`, at the first counted visit' }),
        }),
      },
      404: { description: 'Unknown code, or a campaign without a landing URL: a plain page', contentType: 'text/html', schema: HtmlPage },
    },
    handle: async ({ params, query, req, res }) => {
      const link = await resolve(params.code);
      if (!link) return notFoundPage(res, 'UNKNOWN_CODE');
      if (!link.landingUrl) return notFoundPage(res, 'NO_LANDING_URL');
      const utm: UtmParameters = {};
      for (const name of UTM_PARAMETERS) if (query[name] !== undefined) utm[name] = query[name];
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Location', landingLocation(link.landingUrl, link.referralCode, utm));
      const uncounted = uncountedReason(req);
      if (uncounted || !campaignRunning(link.campaign)) return { status: 302 };
      const deviceId = deviceIdOf(req, res);
      const ip = req.ip ?? '';
      if (!(await limit.admit(ip, link.appId, link.referralCode))) return { status: 302 };
      try {
        await clients.clicks.record({
          appId: link.appId,
          referralCode: link.referralCode,
          context: { ip: ip || undefined, userAgent: req.header('user-agent')?.slice(0, 1000), deviceId },
        });
      } catch (err) {
        // The visitor is sent on all the same: a lost click costs less than a broken link.
        logger.warn({ err, referralCode: link.referralCode }, 'hosted link click not recorded');
      }
      return { status: 302 };
    },
  });

  /** The link's QR code, for a code some app holds. */
  async function linkText(code: string, req: Parameters<typeof publicOrigin>[0], res: Response): Promise<string> {
    const link = await resolve(code);
    if (!link) throw new ConnectError(`Referral code ${code} not found`, Code.NotFound);
    // Built on the request's own origin unless PUBLIC_URL says it: then no shared cache may keep it.
    res.setHeader('Cache-Control', publicUrl ? 'public, max-age=86400' : 'private, max-age=3600');
    return hostedLinkUrl(publicOrigin(req, publicUrl), link.referralCode);
  }

  links.route({
    method: 'get',
    path: '/:code/qr.svg',
    tag: TAG,
    summary: "A hosted link's QR code (SVG)",
    description: 'Public: no credentials. The QR code of `<origin>/r/{code}` (the gateway\'s `PUBLIC_URL`, or the origin asked), as a scalable SVG image.',
    params: codeParams,
    responses: { 200: { description: 'The QR code', contentType: 'image/svg+xml', schema: z.string() } },
    errors: [404],
    handle: async ({ params, req, res }) => ({ status: 200, contentType: 'image/svg+xml', body: await qrSvg(await linkText(params.code, req, res)) }),
  });

  links.route({
    method: 'get',
    path: '/:code/qr.png',
    tag: TAG,
    summary: "A hosted link's QR code (PNG)",
    description: 'Public: no credentials. The QR code of `<origin>/r/{code}`, as a PNG image `size` pixels wide.',
    params: codeParams,
    query: z.object({ size: intFromQuery('size', 64, 1024, 256) }),
    responses: { 200: { description: 'The QR code', contentType: 'image/png', schema: z.string().openapi({ format: 'binary' }) } },
    errors: [404],
    handle: async ({ params, query, req, res }) => ({
      status: 200,
      contentType: 'image/png',
      body: await qrPng(await linkText(params.code, req, res), query.size),
    }),
  });
}
