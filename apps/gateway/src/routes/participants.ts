import { jsonColumns } from '../exports/csv-export';
import { batchesOf, exportRoute } from '../exports/export-route';
import type { ApiRouter } from '../http/api-router';
import { Participant } from '../mappers/participant.mapper';
import { Pagination, pageQuery, pagination } from '../openapi/common-schemas';
import { identifier } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import { EMAIL_COINS_MATCHES, type ParticipantPages } from '../people/participant-pages';

export const ParticipantSorts = z
  .enum(['LAST_ACTIVITY', 'USER_ID', 'REFERRALS', 'CONVERSIONS', 'REWARD_VALUE', 'COINS'])
  .openapi({ description: 'The order: most recent activity first (default), user id, or the highest referrals, conversions, reward value or coins first; ties by user id' });

export const participantQuery = {
  q: identifier("A prefix of the user id, or of the e-mail address when it holds an '@' (any case)").optional(),
  sort: ParticipantSorts.optional(),
};

/** GET /participants: the app's people, referral and incentive sides together. */
export function participantRoutes(api: ApiRouter, pages: ParticipantPages): void {
  api.route({
    method: 'get',
    path: '/participants',
    tag: 'Participants',
    summary: "The app's people: referrers, referees and incentive users",
    description:
      'Everyone the referral program has seen (a referrer, a referee) or the incentive engine has recorded an event of, with their referral ' +
      "figures and their incentive balance. `q` finds a user by a prefix of their id, or of the e-mail address sent with them. Sorted by coins, " +
      "the users with a balance come first, highest first, then those without one; an e-mail search sorted by coins orders its first " +
      `${EMAIL_COINS_MATCHES} matches. The referral figures are kept on write; an incentive user appears once the engine's event reaches the directory (within a second or so).`,
    query: z.object({ ...pageQuery, ...participantQuery }),
    responses: {
      200: { description: 'A page of participants', schema: z.object({ participants: z.array(Participant.schema), pagination: Pagination }).openapi('ParticipantPage') },
    },
    handle: async ({ appId, query }) => {
      const page = await pages.page(appId, { q: query.q, sort: query.sort ?? 'LAST_ACTIVITY', page: query.page, limit: query.limit });
      return { status: 200, body: { participants: page.rows.map(Participant.json), pagination: pagination(query, page) } };
    },
  });

  exportRoute(api, {
    path: '/participants/export',
    tag: 'Participants',
    what: 'participants',
    description: `The people GET /participants lists with the same q and sort (every page; an e-mail search sorted by coins: its first ${EMAIL_COINS_MATCHES} matches).`,
    query: z.object(participantQuery),
    columns: jsonColumns(Participant.schema),
    rows: ({ appId, query }) => batchesOf(pages.export(appId, { q: query.q, sort: query.sort ?? 'LAST_ACTIVITY' }), (rows) => rows.map(Participant.json)),
  });
}
