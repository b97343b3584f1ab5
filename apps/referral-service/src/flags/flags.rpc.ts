import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { FraudDecision, FraudFlagSchema, FraudFlagSort, FraudFlagStatus, FraudFlagSubject, enumName, enumValue, type FraudFlag, type ReferralService } from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { FlagEvidence } from './fraud-flag-evidence';
import type { FlagStatus, FraudFlagDoc } from './fraud-flag.model';
import type { Decision, FlagOrder, FraudFlags } from './fraud-flags';

function flagMessage(doc: FraudFlagDoc): FraudFlag {
  return create(FraudFlagSchema, {
    ...messageFields(doc),
    id: doc._id,
    subject: enumValue(FraudFlagSubject, doc.subject),
    status: enumValue(FraudFlagStatus, doc.status),
  });
}

type FlagCalls = Pick<ServiceImpl<typeof ReferralService>, 'listFraudFlags' | 'getFraudFlag' | 'resolveFraudFlag'>;

/** The review queue at the edge. */
export function flagCalls(flags: FraudFlags, evidence: FlagEvidence): FlagCalls {
  return {
    async listFraudFlags(req, ctx) {
      const page = await flags.list(
        tenantOf(ctx),
        pageFromRequest(req.page),
        { status: enumName(FraudFlagStatus, req.status) as FlagStatus | undefined, campaignId: req.campaignId || undefined },
        (enumName(FraudFlagSort, req.sort) as FlagOrder | undefined) ?? 'CREATED_AT',
      );
      return { flags: page.items.map(flagMessage), page: pageReply(page) };
    },

    async getFraudFlag(req, ctx) {
      const flag = await flags.get(tenantOf(ctx), requiredField(req.flagId, 'flagId'));
      return { flag: flagMessage(flag), evidence: (await evidence.of(flag)) ?? undefined };
    },

    async resolveFraudFlag(req, ctx) {
      const decision = enumName(FraudDecision, req.decision) as Decision | undefined;
      if (!decision) throw invalidArgument('decision must be APPROVE or REJECT');
      const resolvedBy = req.resolvedBy?.operatorId ? { operatorId: req.resolvedBy.operatorId, email: req.resolvedBy.email } : null;
      const flag = await flags.resolve(tenantOf(ctx), requiredField(req.flagId, 'flagId'), decision, req.note?.trim() || null, req.operationKey, resolvedBy);
      return { flag: flagMessage(flag) };
    },
  };
}
