import type { ApiRouter } from '../http/api-router';
import { Badge, UserBadge, badgeJson, userBadgeJson } from '../mappers/incentive-achievement.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { definitionKey, userId } from '../openapi/incentive-schemas';
import { freeText, httpUrl, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const AwardResponse = z.object({ badge: UserBadge.schema, awarded: z.boolean() }).openapi('AwardBadgeResponse');

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
        schema: z.object({ badge: Badge.schema }),
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
    responses: { 200: { description: 'A page of badges', schema: z.object({ badges: z.array(Badge.schema), pagination: Pagination }) } },
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
    path: '/incentives/badges/:key/holders',
    tag: 'Incentive badges',
    summary: 'The users who hold a badge, newest award first',
    description: 'Each holder with how the badge was awarded (MANUAL, LEVEL, MILESTONE) and when. An unknown badge is 404.',
    params: keyParams,
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of holders', schema: z.object({ holders: z.array(UserBadge.schema), pagination: Pagination }) } },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const res = await clients.incentive.listBadgeHolders({ appId, key: params.key, page: pageRequest(query) });
      return { status: 200, body: { holders: res.holders.map(userBadgeJson), pagination: pagination(query, res.page) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/badges/user/:userId',
    tag: 'Incentive badges',
    summary: "A user's badges, newest first",
    params: z.object({ userId: userId() }),
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of badges', schema: z.object({ badges: z.array(UserBadge.schema), pagination: Pagination }) } },
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
    responses: { 200: { description: 'The updated badge', schema: z.object({ badge: Badge.schema }) } },
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
