import type { ApiRouter } from '../http/api-router';
import { badgeJson, userBadgeJson } from '../mappers/incentive-achievement.mapper';
import { Pagination, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { BADGE_SOURCES, definitionKey, userId } from '../openapi/incentive-schemas';
import { freeText, httpUrl, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const Badge = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Badge');

const UserBadge = z
  .object({
    userId: z.string(),
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    source: z.enum(BADGE_SOURCES),
    sourceId: z.string().nullable().openapi({ description: 'Level number or milestone key that awarded it; null when awarded by hand' }),
    awardedAt: timestamp,
  })
  .openapi('UserBadge');

const AwardResponse = z.object({ badge: UserBadge, awarded: z.boolean() }).openapi('AwardBadgeResponse');

const imageUrl = httpUrl(2000).openapi({ description: 'An http(s) URL' });
const keyParams = z.object({ key: definitionKey('Badge key') });
const awardLinks = {
  ListUserBadges: { method: 'get', path: '/incentives/badges/user/:userId', parameters: { userId: '$response.body#/badge/userId' } },
} as const;

export function incentiveBadgeRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/badges',
    tag: 'Incentive badges',
    summary: 'Define a badge',
    body: z
      .object({
        key: definitionKey('Unique per app'),
        name: label(),
        description: freeText(1000).optional(),
        imageUrl: imageUrl.optional(),
      })
      .openapi('CreateBadgeRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ badge: Badge }),
        links: {
          UpdateBadge: { method: 'patch', path: '/incentives/badges/:key', parameters: { key: '$response.body#/badge/key' } },
          AwardBadge: { method: 'post', path: '/incentives/badges/:key/award', parameters: { key: '$response.body#/badge/key' } },
        },
      },
    },
    errors: [409],
    handle: async ({ appId, body, operationKey }) => {
      const { badge } = await clients.incentive.createBadge({ appId, ...body, operationKey });
      return { status: 201, body: { badge: badgeJson(badge!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/badges',
    tag: 'Incentive badges',
    summary: 'List badges, by key',
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of badges', schema: z.object({ badges: z.array(Badge), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listBadges({ appId, page: pageRequest(query) });
      return {
        status: 200,
        body: { badges: res.badges.map(badgeJson), pagination: pagination(query, res.page) },
      };
    },
  });

  // Registered before /incentives/badges/:key/… so "user" is never read as a badge key.
  api.route({
    method: 'get',
    path: '/incentives/badges/user/:userId',
    tag: 'Incentive badges',
    summary: "A user's badges, newest first",
    params: z.object({ userId: userId() }),
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of badges', schema: z.object({ badges: z.array(UserBadge), pagination: Pagination }) } },
    handle: async ({ appId, params, query }) => {
      const res = await clients.incentive.listUserBadges({ appId, userId: params.userId, page: pageRequest(query) });
      return {
        status: 200,
        body: { badges: res.badges.map(userBadgeJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/badges/:key',
    tag: 'Incentive badges',
    summary: 'Update a badge',
    params: keyParams,
    body: z
      .object({ name: label().optional(), description: freeText(1000).optional(), imageUrl: imageUrl.optional() })
      .openapi('UpdateBadgeRequest'),
    responses: { 200: { description: 'The updated badge', schema: z.object({ badge: Badge }) } },
    errors: [404],
    handle: async ({ appId, params, body }) => {
      const { badge } = await clients.incentive.updateBadge({ appId, key: params.key, ...body });
      return { status: 200, body: { badge: badgeJson(badge!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/badges/:key/award',
    tag: 'Incentive badges',
    summary: 'Award a badge to a user by hand',
    description: 'A user holds each badge at most once: awarding it again answers 200 with awarded: false.',
    params: keyParams,
    body: z.object({ userId: userId('The user to award') }).openapi('AwardBadgeRequest'),
    responses: {
      201: { description: 'Awarded', schema: AwardResponse, links: awardLinks },
      200: { description: 'The user already held the badge (awarded: false)', schema: AwardResponse, links: awardLinks },
    },
    errors: [404],
    handle: async ({ appId, params, body, operationKey }) => {
      const res = await clients.incentive.awardBadge({ appId, key: params.key, userId: body.userId, operationKey });
      return { status: res.awarded ? 201 : 200, body: { badge: userBadgeJson(res.userBadge!), awarded: res.awarded } };
    },
  });
}
