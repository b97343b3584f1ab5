import { CampaignStatus, ConversionStatus, DEFAULT_CURRENCY, FulfillmentType, RewardStatus, enumName } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { ApiError } from '../http/api-error';
import { contextOf } from '../http/request-context';
import { hostedLinkUrl, publicOrigin } from '../hosted-links/link-url';
import { isoTime } from '../mappers/proto-json';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';
import { FulfillmentTypes } from '../mappers/campaign.mapper';

export const EMBED_API_BASE = '/embed/v1';

/** Most friends and rewards the widget shows: the newest. */
const SHOWN = 100;

/**
 * A friend as the referrer sees them: enough to recognise, not their whole
 * id (an app's user id may be an e-mail address), so the widget shows
 * nothing of another user but that they joined through this link.
 */
export function friendLabel(userId: string): string {
  const chars = [...userId];
  if (chars.length <= 4) return `${chars[0]}•••`;
  return `${chars.slice(0, 2).join('')}•••${chars.slice(-2).join('')}`;
}

const REVERSAL_REASONS = ['REFUND', 'CHARGEBACK', 'CANCELLATION', 'OTHER'] as const;

/** A reward's reversal reason as the view names it (one it does not know reads OTHER); null when none. */
const reversalReasonOf = (reason: string | undefined) => (reason ? (REVERSAL_REASONS.find((r) => r === reason) ?? 'OTHER') : null);

const WidgetView = z
  .object({
    user: z.object({ id: z.string() }),
    campaign: z.object({ id: z.string(), name: z.string(), status: z.enum(['ACTIVE', 'PAUSED', 'ENDED']) }),
    referral: z.object({
      code: z.string(),
      link: z.string().openapi({ description: 'The hosted link (GET /r/{code})', format: 'uri' }),
      qrCodeSvg: z.string().openapi({ description: "The link's QR code (GET /r/{code}/qr.svg)", format: 'uri' }),
      createdAt: timestamp,
    }),
    stats: z.object({
      clicks: z.number().int(),
      friendsJoined: z.number().int(),
      friendsConverted: z.number().int(),
    }),
    friends: z
      .array(
        z.object({
          label: z.string().openapi({ description: "The friend's user id, shortened (first and last two characters)" }),
          status: z.enum(['JOINED', 'CONVERTED']),
          joinedAt: timestamp.nullable(),
          convertedAt: timestamp.nullable(),
        }),
      )
      .openapi({ description: `Friends who joined through the link, newest first (at most ${SHOWN})` }),
    rewards: z
      .array(
        z.object({
          id: z.string(),
          amount: z.number().openapi({ description: 'What it is worth now (less after a partial reversal)' }),
          currency: currencyCode("ISO 4217 code of `amount`: the campaign's"),
          fulfillmentType: FulfillmentTypes.schema,
          status: z.enum(['PENDING', 'APPROVED', 'PAID', 'CANCELLED']).openapi({ description: 'CANCELLED only for a reward a reversal of its sale took back (`reversalReason`)' }),
          discountCode: z.string().nullable().openapi({ description: 'Once claimed' }),
          expiresAt: timestamp.nullable(),
          availableAt: timestamp.nullable().openapi({ description: "While PENDING: when the campaign's holding period ends and it becomes payable; null: not held so" }),
          reversedAmount: z.number().openapi({ description: 'What reversals of its sale (refunds, chargebacks…) took back; 0 when none' }),
          reversalReason: z
            .enum(REVERSAL_REASONS)
            .nullable()
            .openapi({ description: 'Why a reversal took it back in whole or in part; null when none did' }),
          createdAt: timestamp,
        }),
      )
      .openapi({
        description: `The user's rewards of the campaign, newest first (at most ${SHOWN}; those cancelled are left out, but for those a reversal of their sale took back)`,
      }),
  })
  .openapi('ReferralWidgetView');

/**
 * The widget's reads (/embed/v1), with an embed token only: one user's view
 * of one campaign, read from the public API's services, nothing to change.
 */
export function embedApiRoutes(embed: ApiRouter, clients: ServiceClients, publicUrl: string | undefined): void {
  embed.route({
    method: 'get',
    path: '/referral',
    tag: 'Referral widget',
    summary: "The widget's view of its user",
    description:
      "What the referral widget shows the token's user in the token's campaign: their hosted link and its QR code, their clicks, the friends " +
      'who joined and converted through it (their ids shortened), and their rewards with the claimed codes. Takes an embed token only.',
    responses: { 200: { description: 'The view', schema: WidgetView } },
    errors: [404, 429],
    handle: async ({ appId, req, res }) => {
      const { userId, campaignId } = contextOf(res).embed!;
      const page = { page: 1, limit: SHOWN };
      const [referrals, conversions, rewards, stats] = await Promise.all([
        clients.referral.listReferrals({ appId, page: { page: 1, limit: 1 }, campaignId, referrerId: userId }),
        clients.referral.listConversions({ appId, page, campaignId, userId }),
        clients.reward.listRewards({ appId, page, userId }),
        clients.referral.getUserStats({ appId, userId, campaignId }),
      ]);
      const referral = referrals.referrals[0];
      if (!referral) throw new ApiError(404, 'REFERRAL_NOT_FOUND', `User ${userId} has no referral in campaign ${campaignId}.`);
      const origin = publicOrigin(req, publicUrl);
      const link = hostedLinkUrl(origin, referral.referralCode);
      const friends = conversions.conversions
        .filter((c) => c.level === 1 && c.referrerId === userId)
        .map((c) => ({
          label: friendLabel(c.refereeId),
          // A conversion under fraud review reads as joined: the widget is no place for the verdict.
          status: c.status === ConversionStatus.CONVERTED ? ('CONVERTED' as const) : ('JOINED' as const),
          joinedAt: isoTime(c.createdAt),
          convertedAt: c.status === ConversionStatus.CONVERTED ? isoTime(c.convertedAt) : null,
        }));
      return {
        status: 200,
        body: {
          user: { id: userId },
          campaign: {
            id: campaignId,
            name: referral.campaign?.name ?? '',
            status: enumName(CampaignStatus, referral.campaign?.status ?? CampaignStatus.ACTIVE) ?? 'ACTIVE',
          },
          referral: { code: referral.referralCode, link, qrCodeSvg: `${link}/qr.svg`, createdAt: isoTime(referral.createdAt) },
          stats: {
            clicks: stats.clicks,
            friendsJoined: friends.length,
            friendsConverted: friends.filter((f) => f.status === 'CONVERTED').length,
          },
          friends,
          rewards: rewards.rewards
            // A reward a reversal took back stays, as such: the user sees where it went. One cancelled by a review or an operator does not.
            .filter((r) => r.campaignId === campaignId && (r.status !== RewardStatus.CANCELLED || Boolean(r.reversalReason)))
            .map((r) => ({
              id: r.id,
              amount: r.amount,
              currency: r.currency || DEFAULT_CURRENCY,
              fulfillmentType: enumName(FulfillmentType, r.fulfillmentType) ?? 'CUSTOM',
              status: enumName(RewardStatus, r.status) ?? 'PENDING',
              discountCode: r.discountCode ?? null,
              expiresAt: isoTime(r.expiresAt),
              availableAt: isoTime(r.availableAt),
              reversedAmount: r.reversedAmount,
              reversalReason: reversalReasonOf(r.reversalReason),
              createdAt: isoTime(r.createdAt),
            })),
        },
      };
    },
  });
}
