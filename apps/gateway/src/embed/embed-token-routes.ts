import type { ApiRouter } from '../http/api-router';
import { ApiError } from '../http/api-error';
import { publicOrigin } from '../hosted-links/link-url';
import { id, timestamp } from '../openapi/common-schemas';
import { webOrigin } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';
import type { EmbedTokens } from './embed-token';
import { WIDGET_PAGE } from './widget-page';

const DEFAULT_MINUTES = 15;

/** POST /api/v1/embed-tokens: an app's backend asks for a widget token for one of its users. */
export function embedTokenRoutes(api: ApiRouter, clients: ServiceClients, tokens: EmbedTokens, publicUrl: string | undefined): void {
  api.route({
    method: 'post',
    path: '/embed-tokens',
    tag: 'Referral widget',
    summary: "A short-lived token of a user's referral widget",
    description: [
      'For your backend to hand to the page that shows the widget (`/embed/referrals?token=…`, an iframe, or the `/embed/loader.js` script tag).',
      "The token lets its holder read that user's view of the campaign (link, QR code, friends, rewards with their codes) through",
      '`GET /embed/v1/referral` and nothing else: no other endpoint takes it, and those endpoints take nothing else (no API key).',
      'It is signed, not stored, and expires after `expiresInMinutes`. The pages of `allowedOrigins` may frame the widget (its',
      "`Content-Security-Policy: frame-ancestors`); without any, only the gateway's own origin may. The user needs a referral in the",
      'campaign (`POST /referrals`): 404 `REFERRAL_NOT_FOUND` otherwise.',
    ].join('\n'),
    body: z
      .object({
        userId: id('The user the widget is for: the referrer'),
        campaignId: id('Campaign id'),
        allowedOrigins: z
          .array(webOrigin())
          .max(10)
          .optional()
          .openapi({ description: 'Origins of the pages that embed the widget in a frame (at most 10)' }),
        expiresInMinutes: z.number().int().min(1).max(60).optional().openapi({ default: DEFAULT_MINUTES }),
      })
      .openapi('CreateEmbedTokenRequest'),
    responses: {
      201: {
        description: 'The token',
        links: {
          ListUserReferrals: {
            method: 'get',
            path: '/referrals',
            parameters: { referrerId: '$request.body#/userId', campaignId: '$request.body#/campaignId' },
          },
        },
        schema: z
          .object({
            token: z.string().openapi({ description: 'Sent as `Authorization: Bearer` to /embed/v1, or as `token` of the widget page' }),
            expiresAt: timestamp,
            widgetUrl: z.string().openapi({ description: 'The widget page with this token', format: 'uri' }),
          })
          .openapi('EmbedToken'),
      },
    },
    errors: [404],
    handle: async ({ appId, body, req }) => {
      const { referrals } = await clients.referral.listReferrals({
        appId,
        page: { page: 1, limit: 1 },
        campaignId: body.campaignId,
        referrerId: body.userId,
      });
      if (referrals.length === 0) {
        throw new ApiError(404, 'REFERRAL_NOT_FOUND', `User ${body.userId} has no referral in campaign ${body.campaignId}: create it with POST /referrals first.`, {
          userId: body.userId,
          campaignId: body.campaignId,
        });
      }
      const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + (body.expiresInMinutes ?? DEFAULT_MINUTES) * 60_000);
      const token = tokens.issue({ appId, userId: body.userId, campaignId: body.campaignId, origins: [...new Set(body.allowedOrigins ?? [])], expiresAt });
      const widgetUrl = `${publicOrigin(req, publicUrl)}${WIDGET_PAGE}?token=${encodeURIComponent(token)}`;
      return { status: 201, body: { token, expiresAt: expiresAt.toISOString(), widgetUrl } };
    },
  });
}
