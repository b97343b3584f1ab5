import { LINKS_BASE } from '../hosted-links/hosted-link-routes';
import { jsonColumns } from '../exports/csv-export';
import { EXPORT_CALL, batchesOf, exportRoute } from '../exports/export-route';
import type { ApiRouter } from '../http/api-router';
import { FraudFields, Referral, ReferralStatuses, fraudFields, referralJson } from '../mappers/referral.mapper';
import { isoTime } from '../mappers/proto-json';
import { Pagination, clientContextFields, id, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { lineText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const CreateReferralResponse = z
  .object({ referralCode: z.string(), referralId: z.string(), status: ReferralStatuses.schema, ...FraudFields })
  .openapi('CreateReferralResponse');

const referralLinks = {
  GetReferral: { method: 'get', path: '/referrals/:referralCode', parameters: { referralCode: '$response.body#/referralCode' } },
  RecordClick: { method: 'post', path: '/clicks', requestBody: { referralCode: '$response.body#/referralCode' } },
  RecordConversion: { method: 'post', path: '/conversions', requestBody: { referralCode: '$response.body#/referralCode' } },
  FollowHostedLink: { basePath: LINKS_BASE, method: 'get', path: '/:code', parameters: { code: '$response.body#/referralCode' } },
  GetHostedLinkQrCode: { basePath: LINKS_BASE, method: 'get', path: '/:code/qr.png', parameters: { code: '$response.body#/referralCode' } },
} as const;

const contextFields = {
  ip: clientContextFields.ip,
  userAgent: clientContextFields.userAgent,
  deviceId: clientContextFields.deviceId,
  email: clientContextFields.email,
};

/** The filters of GET /referrals and its export. */
const referralFilters = {
  campaignId: id('Only this campaign').optional(),
  referrerId: id('Only this referrer').optional(),
};

export function referralRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/referrals',
    tag: 'Referrals',
    summary: 'Create (or get) the referral code of a referrer in a campaign',
    description:
      'A referrer has one referral per campaign: the first call creates it (201), later calls return the same one (200). ' +
      'Fraud detection runs on creation; a flagged referral carries warning, reasons and riskScore.',
    body: z
      .object({
        campaignId: id('Campaign id'),
        referrerId: id('User creating the referral'),
        refereeId: id('The referred user, when already known').optional(),
        referrerUsername: lineText(200).optional(),
        referrerEmail: lineText(320).optional(),
        ...contextFields,
      })
      .openapi('CreateReferralRequest'),
    responses: {
      201: { description: 'Created', schema: CreateReferralResponse, links: referralLinks },
      200: { description: 'The referrer already had a referral in this campaign; it is returned', schema: CreateReferralResponse, links: referralLinks },
    },
    errors: [404, 422],
    handle: async ({ appId, body, operationKey }) => {
      const { referral, created } = await clients.referral.createReferral({
        appId,
        operationKey,
        campaignId: body.campaignId,
        referrerId: body.referrerId,
        refereeId: body.refereeId,
        referrerUsername: body.referrerUsername,
        referrerEmail: body.referrerEmail,
        context: { ip: body.ip, userAgent: body.userAgent, deviceId: body.deviceId, email: body.email },
      });
      const r = referralJson(referral!);
      return {
        status: created ? 201 : 200,
        body: { referralCode: r.referralCode, referralId: r.id, status: r.status, ...fraudFields(referral!.fraud) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/referrals',
    tag: 'Referrals',
    summary: 'List referrals, newest first',
    description:
      "A campaign's referrals (campaignId), a referrer's in every campaign (referrerId: one per campaign), or both (at most one); " +
      "every referral of the app without a filter. status is COMPLETED from the referral's first conversion.",
    query: z.object({ ...pageQuery, ...referralFilters }),
    responses: {
      200: { description: 'A page of referrals', schema: z.object({ referrals: z.array(Referral.schema), pagination: Pagination }).openapi('ReferralList') },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listReferrals({
        appId,
        page: pageRequest(query),
        campaignId: query.campaignId,
        referrerId: query.referrerId,
      });
      return { status: 200, body: { referrals: res.referrals.map(referralJson), pagination: pagination(query, res.page) } };
    },
  });

  // Registered before /referrals/:referralCode, which would otherwise take "export" for a code.
  exportRoute(api, {
    path: '/referrals/export',
    tag: 'Referrals',
    what: 'referrals',
    description: 'The referrals GET /referrals lists with the same filters (every page).',
    query: z.object(referralFilters),
    columns: jsonColumns(Referral.schema),
    rows: ({ appId, query }) =>
      batchesOf(clients.referral.exportReferrals({ appId, campaignId: query.campaignId, referrerId: query.referrerId }, EXPORT_CALL), (m) => m.referrals.map(referralJson)),
  });

  api.route({
    method: 'get',
    path: '/referrals/:referralCode',
    tag: 'Referrals',
    summary: 'Get a referral by its code',
    params: z.object({ referralCode: id('Referral code (case-insensitive)') }),
    responses: { 200: { description: 'The referral', schema: z.object({ referral: Referral.schema }) } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { referral } = await clients.referral.getReferral({ appId, referralCode: params.referralCode });
      return { status: 200, body: { referral: referralJson(referral!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/clicks',
    tag: 'Clicks',
    summary: 'Record a click on a referral link',
    description: 'With an `Idempotency-Key`, a retry after a 503 or a timeout is the same click (counted once).',
    body: z
      .object({
        referralCode: id('Referral code'),
        refereeId: id('The visitor, when already known').optional(),
        ...contextFields,
      })
      .openapi('RecordClickRequest'),
    responses: {
      200: {
        description: 'Recorded',
        schema: z
          .object({ success: z.boolean(), clickId: z.string(), referralCode: z.string(), clickedAt: timestamp })
          .openapi('RecordClickResponse'),
      },
    },
    errors: [404],
    handle: async ({ appId, body, operationKey }) => {
      const res = await clients.clicks.record({
        appId,
        operationKey,
        referralCode: body.referralCode,
        refereeId: body.refereeId,
        context: { ip: body.ip, userAgent: body.userAgent, deviceId: body.deviceId, email: body.email },
      });
      return {
        status: 200,
        body: { success: true, clickId: res.clickId, referralCode: res.referralCode, clickedAt: isoTime(res.clickedAt) },
      };
    },
  });
}
