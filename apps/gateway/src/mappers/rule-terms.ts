import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import type { LevelReward as LevelRewardMessage, RewardRule as RewardRuleMessage } from '@ris/contracts';
import { MAX_AMOUNT, decimalAmount } from '../openapi/number-fields';
import { z } from '../openapi/zod';
import { from } from './entity';

// What a reward rule pays (referrerReward, refereeReward, each level): a fixed `amount`, or `percent` of the sale's
// amount with an optional `maxAmount` (docs/product-decisions.md §3.8). Two optional fields and a rule rather than a
// `type` discriminator: requests written before percentages ({amount, fulfillmentType}) stay valid as they are, and a
// rule read from a campaign ({amount: 10, percent: null, maxAmount: null}) can be sent back unchanged.

const EITHER_OR =
  'Exactly one of `amount` (a fixed reward) and `percent` (that share of the conversion\'s `amount`, rounded half away from zero to the currency\'s smallest unit (the cent of USD or EUR, a whole yen), ' +
  'and capped by `maxAmount` when set); `maxAmount` only with `percent`. Amounts are in the campaign\'s `currency`.';

const PERCENT_BOUNDS = { exclusiveMinimum: 0, maximum: 100 };
const AMOUNT_BOUNDS = { minimum: 0, maximum: MAX_AMOUNT };

/** Absent or null (the object's own schema allows nothing else but a number): a field the branch does not use. */
const UNUSED = { not: { type: 'number' as const } };

/**
 * The either/or of a request as JSON Schema: exactly one branch matches (a
 * fixed rule has a number `amount` and no percent or cap; a percentage rule
 * a number `percent` and no amount; absent and null are alike). Each number
 * keeps its bounds, so a branch read alone states the whole rule. Unused
 * fields are "not a number" rather than "null": generated client types then
 * keep them (a null-only field is dropped by openapi-fetch's helpers).
 */
const EITHER_OR_SCHEMA: Pick<ZodOpenAPIMetadata, 'oneOf'> = {
  oneOf: [
    { title: 'Fixed amount', required: ['amount'], properties: { amount: { type: 'number', ...AMOUNT_BOUNDS }, percent: UNUSED, maxAmount: UNUSED } },
    { title: 'Percentage of the sale', required: ['percent'], properties: { percent: { type: 'number', ...PERCENT_BOUNDS }, amount: UNUSED } },
  ],
};

/**
 * The metadata of a rule's schema: its description (the either/or in words)
 * and, for a request, the either/or as JSON Schema. An answer always has the
 * three fields, one of amount and percent null, as its description says:
 * without a oneOf its type stays one plain object for clients.
 */
export const ruleMetadata = (description: string, { request }: { request: boolean }): Partial<ZodOpenAPIMetadata> => ({
  description: `${description}. ${EITHER_OR}`,
  ...(request ? EITHER_OR_SCHEMA : {}),
});

/** A rule's terms in a request: each optional and nullable, exactly one of amount and percent (checkRuleTerms). */
export const ruleTermsInput = {
  amount: decimalAmount().nullable().optional().openapi({ description: 'A fixed reward. Not with `percent`' }),
  percent: z
    .number()
    .gt(PERCENT_BOUNDS.exclusiveMinimum, 'must be more than 0')
    .max(PERCENT_BOUNDS.maximum, 'must be at most 100')
    .nullable()
    .optional()
    .openapi({ description: "The reward is this percentage of the conversion's `amount` (more than 0, at most 100). Not with `amount`", example: 10 }),
  maxAmount: z
    .number()
    .gt(0, 'must be more than 0')
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
    .nullable()
    .optional()
    .openapi({ description: 'Only with `percent`: the most the reward pays', example: 50 }),
};

type RuleTermsSent = { amount?: number | null; percent?: number | null; maxAmount?: number | null };

/** The either/or of a request's rule, each refusal naming its field (400 VALIDATION_ERROR). */
export function checkRuleTerms(rule: RuleTermsSent, ctx: z.RefinementCtx): void {
  const fixed = rule.amount !== null && rule.amount !== undefined;
  const share = rule.percent !== null && rule.percent !== undefined;
  if (fixed && share) ctx.addIssue({ code: 'custom', path: ['percent'], message: 'give either amount or percent, not both' });
  if (!fixed && !share) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give amount (a fixed reward) or percent (a share of the sale)' });
  if (!share && rule.maxAmount !== null && rule.maxAmount !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: 'caps a percent: give percent with it' });
  }
}

/** A request's rule terms as the referral service takes them: a percentage carries a fixed amount of 0. */
export const ruleTermsMessage = (rule: RuleTermsSent) =>
  rule.percent !== null && rule.percent !== undefined ? { amount: 0, percent: rule.percent, maxAmount: rule.maxAmount ?? undefined } : { amount: rule.amount ?? 0 };

/** A rule's terms in an answer: always the three fields, null where the rule has none. */
export const ruleTermsOutput = {
  amount: from(
    z.number().nullable().openapi({ description: 'The fixed reward; null when the rule pays a percent' }),
    (rule: RewardRuleMessage | LevelRewardMessage) => (rule.percent === undefined ? rule.amount : null),
  ),
  percent: z.number().nullable().openapi({ description: "The share of the conversion's `amount` the rule pays; null for a fixed reward" }),
  maxAmount: z.number().nullable().openapi({ description: 'The most a percentage rule pays; null: no cap (and for a fixed reward)' }),
};
