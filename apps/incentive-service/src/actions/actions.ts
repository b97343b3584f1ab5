import { characterCount } from '@ris/contracts';
import { invalid, notFound } from '@ris/domain-errors';
import type { Page, PageQuery } from '@ris/mongo';
import type { ActionDoc } from './action.model';
import { ACTION_TYPES, type ActionTypeName } from './action-types';
import type { ActionListFilter, ActionRepository } from './action.repository';
import { checkKey, checkName, checkWholeNumber } from '../definitions/definition-key';
import { createDefinition } from '../definitions/definition-create';
import { actionId } from '../events/derived-ids';
import { checkAmount, checkXp } from '../ledger/reward-amounts';
import { ShortLivedCache } from '../definitions/short-lived-cache';

/** What a caller gives for an action: its document but for what the store sets. */
export type ActionInput = Omit<ActionDoc, '_id' | 'appId' | 'createdAt' | 'updatedAt' | 'createdByOperation'>;

export type ActionPatch = Partial<Omit<ActionInput, 'key'>>;

function checkAction(a: Omit<ActionInput, 'key'>): void {
  checkName(a.name);
  if (!ACTION_TYPES.includes(a.type)) throw invalid(`type must be one of ${ACTION_TYPES.join(', ')}`);
  checkAmount(a.coins, 'coins');
  checkXp(a.xp, 'xp');
  checkAmount(a.tokens, 'tokens');
  checkWholeNumber(a.cooldownSeconds, 'cooldown');
  if (a.maxRepeats !== null) checkWholeNumber(a.maxRepeats, 'maxRepeats');
  checkWholeNumber(a.pendingDays ?? 0, 'pendingDays', MAX_PENDING_DAYS);
  if (a.description !== null && characterCount(a.description) > 1000) throw invalid('description must be at most 1000 characters');
}

/** A return window of a year at most. */
export const MAX_PENDING_DAYS = 365;

const typeKey = (appId: string, type: ActionTypeName) => `${appId}\u0000${type}`;

/** An app's actions: what each earns and the rules that limit it. */
export class Actions {
  // Events read their action on every call.
  private readonly cache = new ShortLivedCache<ActionDoc | null>(1000);
  // Every referral event asks for the actions of its type (most apps have none).
  private readonly byType = new ShortLivedCache<ActionDoc[]>(1000);

  constructor(private readonly actions: ActionRepository) {}

  async create(appId: string, input: ActionInput, operationKey = ''): Promise<ActionDoc> {
    checkKey(input.key);
    checkAction(input);
    const now = new Date();
    const { doc, created } = await createDefinition(
      this.actions,
      appId,
      { ...input, _id: actionId(appId, input.key), name: input.name.trim(), createdAt: now, updatedAt: now },
      'An action',
      input.key,
      operationKey,
    );
    if (created) {
      this.cache.invalidate(actionId(appId, input.key));
      this.byType.invalidate(typeKey(appId, input.type));
    }
    return doc;
  }

  async get(appId: string, key: string): Promise<ActionDoc> {
    const action = await this.actions.byKey(appId, key);
    if (!action) throw notFound('Action', { key });
    return action;
  }

  /** For the event path: cached briefly. */
  find(appId: string, key: string): Promise<ActionDoc | null> {
    const id = actionId(appId, key);
    return this.cache.get(id, () => this.actions.byKey(appId, key));
  }

  list(appId: string, page: PageQuery, filter: ActionListFilter = {}): Promise<Page<ActionDoc>> {
    return this.actions.page(appId, page, filter);
  }

  /** Actions the referral consumer fires for a referral event type: cached briefly. */
  ofType(appId: string, type: ActionTypeName): Promise<ActionDoc[]> {
    return this.byType.get(typeKey(appId, type), () => this.actions.ofType(appId, type));
  }

  async update(appId: string, key: string, patch: ActionPatch): Promise<ActionDoc> {
    const current = await this.get(appId, key);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as ActionPatch;
    const next = { ...current, ...defined };
    if (defined.name !== undefined) next.name = defined.name.trim();
    checkAction(next);
    const updated = await this.actions.replace(appId, next);
    this.cache.invalidate(current._id);
    this.byType.invalidate(typeKey(appId, current.type));
    this.byType.invalidate(typeKey(appId, next.type));
    if (!updated) throw notFound('Action', { key });
    return updated;
  }
}
