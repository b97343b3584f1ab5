import { invalid, notFound, refused } from '@ris/domain-errors';
import type { Page, PageQuery } from '@ris/mongo';
import type { Actions } from '../actions/actions';
import { createDefinition } from '../definitions/definition-create';
import { checkKey, checkName, checkWholeNumber } from '../definitions/definition-key';
import { ShortLivedCache } from '../definitions/short-lived-cache';
import { streakDefinitionId } from '../events/derived-ids';
import { checkAmount, checkXp } from '../ledger/reward-amounts';
import type { Badges } from '../progression/badges';
import type { StreakDefinitionDoc } from './streak-definition.model';
import type { StreakDefinitionRepository } from './streak-definition.repository';
import type { StreakRule } from './streak-progress';
import type { StreakPeriodName } from './streak-periods';

export type StreakDefinitionInput = Pick<StreakDefinitionDoc, 'key' | 'name' | 'period' | 'actionKeys' | 'freezesPerMonth' | 'rewards'>;

export type StreakDefinitionPatch = Partial<Pick<StreakDefinitionInput, 'name' | 'actionKeys' | 'freezesPerMonth' | 'rewards'>>;

export const STREAK_PERIODS: readonly StreakPeriodName[] = ['DAILY', 'WEEKLY'];
export const MAX_FREEZES_PER_MONTH = 10;
const MAX_ACTION_KEYS = 50;
const MAX_REWARDS = 50;
/** Ten years of days: a reward further out would never be reached. */
const MAX_REWARD_LENGTH = 3650;

/** The rule the progress functions read from a definition. */
export const streakRule = (d: StreakDefinitionDoc): StreakRule => ({
  key: d.key,
  period: d.period,
  actionKeys: d.actionKeys,
  freezesPerMonth: d.freezesPerMonth,
  rewardLengths: d.rewards.map((r) => r.length),
});

function checkFields(d: Omit<StreakDefinitionInput, 'key'>): void {
  checkName(d.name);
  if (!STREAK_PERIODS.includes(d.period)) throw invalid(`period must be one of ${STREAK_PERIODS.join(', ')}`, { field: 'period' });
  if (d.actionKeys.length > MAX_ACTION_KEYS) throw invalid(`actionKeys: at most ${MAX_ACTION_KEYS}`, { field: 'actionKeys' });
  d.actionKeys.forEach((k, i) => checkKey(k, `actionKeys[${i}]`));
  if (new Set(d.actionKeys).size !== d.actionKeys.length) throw invalid('actionKeys must not repeat a key', { field: 'actionKeys' });
  checkWholeNumber(d.freezesPerMonth, 'freezesPerMonth', MAX_FREEZES_PER_MONTH);
  if (d.rewards.length > MAX_REWARDS) throw invalid(`rewards: at most ${MAX_REWARDS}`, { field: 'rewards' });
  d.rewards.forEach((r, i) => {
    checkWholeNumber(r.length, `rewards[${i}].length`, MAX_REWARD_LENGTH);
    if (r.length < 1) throw invalid(`rewards[${i}].length must be at least 1`, { field: `rewards[${i}].length` });
    checkAmount(r.coins, `rewards[${i}].coins`);
    checkXp(r.xp, `rewards[${i}].xp`);
    checkAmount(r.tokens, `rewards[${i}].tokens`);
  });
  // 422: a rule between items that the document's schema cannot state.
  if (new Set(d.rewards.map((r) => r.length)).size !== d.rewards.length) {
    throw refused('REWARD_LENGTH_REPEATED', 'rewards: one reward per length', { field: 'rewards' });
  }
}

/** Streak definitions: CRUD like the other definitions, and the cached list the event path reads. */
export class StreakDefinitions {
  private readonly cache = new ShortLivedCache<StreakDefinitionDoc[]>(1000);

  constructor(
    private readonly definitions: StreakDefinitionRepository,
    private readonly actions: Actions,
    private readonly badges: Badges,
  ) {}

  /** Named actions and badges must exist: 422 ACTION_NOT_FOUND, BADGE_NOT_FOUND (the request is well formed). */
  private async checkReferences(appId: string, d: Pick<StreakDefinitionInput, 'actionKeys' | 'rewards'>): Promise<void> {
    for (const key of d.actionKeys) {
      if (!(await this.actions.find(appId, key))) {
        throw refused('ACTION_NOT_FOUND', `actionKeys: there is no action with key ${key}`, { field: 'actionKeys', actionKey: key });
      }
    }
    for (const [i, r] of d.rewards.entries()) await this.badges.checkExists(appId, r.badgeKey, `rewards[${i}].badgeKey`);
  }

  async create(appId: string, input: StreakDefinitionInput, operationKey = ''): Promise<StreakDefinitionDoc> {
    checkKey(input.key);
    checkFields(input);
    await this.checkReferences(appId, input);
    const now = new Date();
    const { doc, created } = await createDefinition(
      this.definitions,
      appId,
      {
        _id: streakDefinitionId(appId, input.key),
        key: input.key,
        name: input.name.trim(),
        period: input.period,
        actionKeys: input.actionKeys,
        freezesPerMonth: input.freezesPerMonth,
        rewards: [...input.rewards].sort((a, b) => a.length - b.length),
        createdAt: now,
        updatedAt: now,
      },
      'A streak',
      input.key,
      operationKey,
    );
    if (created) this.cache.invalidate(appId);
    return doc;
  }

  async get(appId: string, key: string): Promise<StreakDefinitionDoc> {
    const doc = await this.definitions.byKey(appId, key);
    if (!doc) throw notFound('Streak', { key });
    return doc;
  }

  list(appId: string, page: PageQuery): Promise<Page<StreakDefinitionDoc>> {
    return this.definitions.page(appId, page);
  }

  /** Every definition of the app (cached briefly: read on every event). */
  all(appId: string): Promise<StreakDefinitionDoc[]> {
    return this.cache.get(appId, () => this.definitions.all(appId));
  }

  /** The period cannot change: users' progress is counted in it. */
  async update(appId: string, key: string, patch: StreakDefinitionPatch): Promise<StreakDefinitionDoc> {
    const current = await this.get(appId, key);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as StreakDefinitionPatch;
    const next: StreakDefinitionDoc = { ...current, ...defined };
    if (defined.name !== undefined) next.name = defined.name.trim();
    if (defined.rewards) next.rewards = [...defined.rewards].sort((a, b) => a.length - b.length);
    checkFields(next);
    await this.checkReferences(appId, { actionKeys: defined.actionKeys ?? [], rewards: defined.rewards ?? [] });
    const updated = await this.definitions.storeChanges(appId, next);
    this.cache.invalidate(appId);
    if (!updated) throw notFound('Streak', { key });
    return updated;
  }

  /** Users' progress stops being kept; what its rewards gave stays. */
  async delete(appId: string, key: string): Promise<void> {
    if (!(await this.definitions.removeKey(appId, key))) throw notFound('Streak', { key });
    this.cache.invalidate(appId);
  }
}
