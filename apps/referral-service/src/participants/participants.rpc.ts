import type { ServiceImpl } from '@connectrpc/connect';
import { ParticipantOrder, enumName, type ListParticipantsRequest, type ReferralService } from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { ParticipantDoc } from './participant.model';
import type { ParticipantFilter, ParticipantOrder as Order, Participants } from './participants';

/** Most users GetParticipants takes: a page of another list. */
const MAX_USERS = 100;

const participantMessage = (doc: ParticipantDoc) => messageFields(doc);

/** The filters and the order of a list or export request (by user id unless it names one). */
/** The filters and order of a list or export request (the same fields in both). */
const participantFilter = (req: Omit<ListParticipantsRequest, 'page' | '$typeName'>): ParticipantFilter => ({ query: req.query || undefined, engaged: req.engaged });
const participantOrder = (req: Omit<ListParticipantsRequest, 'page' | '$typeName'>): Order => (enumName(ParticipantOrder, req.order) as Order | undefined) ?? 'USER_ID';

type ParticipantCalls = Pick<ServiceImpl<typeof ReferralService>, 'listParticipants' | 'exportParticipants' | 'getParticipants'>;

/** The participants directory at the edge. */
export function participantCalls(participants: Participants): ParticipantCalls {
  return {
    async listParticipants(req, ctx) {
      const page = await participants.list(tenantOf(ctx), participantFilter(req), participantOrder(req), pageFromRequest(req.page));
      return { participants: page.items.map(participantMessage), page: pageReply(page) };
    },

    async *exportParticipants(req, ctx) {
      for await (const batch of participants.export(tenantOf(ctx), participantFilter(req), participantOrder(req))) yield { participants: batch.map(participantMessage) };
    },

    async getParticipants(req, ctx) {
      if (req.userIds.length > MAX_USERS) throw invalidArgument(`at most ${MAX_USERS} userIds`);
      return { participants: (await participants.ofUsers(tenantOf(ctx), req.userIds)).map(participantMessage) };
    },
  };
}
