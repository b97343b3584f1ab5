import { characterCount } from '@ris/contracts';
import { alreadyExists, conflict, invalid, notFound, refused } from '@ris/domain-errors';
import type { Badges } from './badges';
import { checkName, checkWholeNumber } from '../definitions/definition-key';
import { byLevel, ladderProblem, type LevelDef } from './level-progress';
import type { LevelSetRepository } from './level-set.repository';
import { checkAmount, checkXp } from '../ledger/reward-amounts';
import { ShortLivedCache } from '../definitions/short-lived-cache';

export type LevelPatch = Partial<Pick<LevelDef, 'name' | 'xpThreshold' | 'rewards'>>;

function checkLevel(level: LevelDef): LevelDef {
  if (!Number.isInteger(level.level) || level.level < 1 || level.level > 10_000) throw invalid('level must be a whole number from 1 to 10000');
  checkXp(level.xpThreshold, 'xpThreshold');
  checkAmount(level.rewards.coins, 'rewards.coins');
  const perks = level.rewards.perks.map((p) => p.trim());
  if (perks.length > 50 || perks.some((p) => !p || characterCount(p) > 100)) throw invalid('rewards.perks: at most 50 perks of 1 to 100 characters');
  return { ...level, name: checkName(level.name), rewards: { ...level.rewards, perks: [...new Set(perks)] } };
}

const MAX_ATTEMPTS = 20;

/**
 * An app's level ladder. The ladder is one document changed by
 * compare-and-set, so every change is validated against the ladder it
 * replaces (thresholds must rise with the level: 422 LADDER_ORDER otherwise).
 */
export class Levels {
  private readonly cache = new ShortLivedCache<LevelDef[]>(1000);

  constructor(
    private readonly sets: LevelSetRepository,
    private readonly badges: Badges,
  ) {}

  private async read(appId: string): Promise<{ version: number; levels: LevelDef[]; createdByOperation: Record<string, string> }> {
    const doc = await this.sets.ofApp(appId);
    return { version: doc?.version ?? 0, levels: [...(doc?.levels ?? [])].sort(byLevel), createdByOperation: doc?.createdByOperation ?? {} };
  }

  /** The ladder, lowest level first (cached briefly: read on every balance change). */
  list(appId: string): Promise<LevelDef[]> {
    return this.cache.get(appId, async () => (await this.read(appId)).levels);
  }

  /** Applies `change` to the current ladder and stores it if nobody changed it meanwhile. */
  private async change(
    appId: string,
    change: (levels: LevelDef[], createdByOperation: Record<string, string>) => LevelDef[],
    alsoSet: Record<string, unknown> = {},
  ): Promise<LevelDef[]> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const { version, levels, createdByOperation } = await this.read(appId);
      const next = change(levels, createdByOperation).sort(byLevel);
      // Nothing to write (a retry answered with what its first try made).
      if (next.length === levels.length && next.every((l, i) => l === levels[i])) return next;
      const problem = ladderProblem(next);
      // 422: the level is well formed; it does not fit the ladder stored.
      if (problem) throw refused('LADDER_ORDER', problem);
      // False: someone changed the ladder (or made the first one) meanwhile; read it again.
      if (await this.sets.replaceAt(appId, version, next, alsoSet)) {
        this.cache.invalidate(appId);
        return next;
      }
    }
    throw conflict('CONFLICT', 'The level ladder is being changed concurrently; retry.');
  }

  /** A level exists once: 409 ALREADY_EXISTS, except to a retry of the request that created it (same operation key). */
  async create(appId: string, input: LevelDef, operationKey = ''): Promise<LevelDef> {
    const level = checkLevel(input);
    await this.badges.checkExists(appId, level.rewards.badgeKey, 'rewards.badgeKey');
    let answer = level;
    await this.change(
      appId,
      (levels, createdByOperation) => {
        const existing = levels.find((l) => l.level === level.level);
        if (existing && operationKey && createdByOperation[String(level.level)] === operationKey) {
          answer = existing;
          return levels;
        }
        if (existing) throw alreadyExists(`Level ${level.level} already exists.`, { level: level.level });
        return [...levels, level];
      },
      operationKey ? { [`createdByOperation.${level.level}`]: operationKey } : {},
    );
    return answer;
  }

  async update(appId: string, levelNumber: number, patch: LevelPatch): Promise<LevelDef> {
    checkWholeNumber(levelNumber, 'level');
    if (patch.rewards) await this.badges.checkExists(appId, patch.rewards.badgeKey, 'rewards.badgeKey');
    let updated: LevelDef | undefined;
    await this.change(appId, (levels) => {
      const current = levels.find((l) => l.level === levelNumber);
      if (!current) throw notFound('Level', { level: levelNumber });
      updated = checkLevel({
        ...current,
        name: patch.name ?? current.name,
        xpThreshold: patch.xpThreshold ?? current.xpThreshold,
        rewards: patch.rewards ?? current.rewards,
      });
      return levels.map((l) => (l.level === levelNumber ? (updated as LevelDef) : l));
    });
    return updated as LevelDef;
  }

  /**
   * Removes a level from the ladder. Users who were granted it keep what it
   * gave; a level re-created with the same number is not granted to them again.
   */
  async delete(appId: string, levelNumber: number): Promise<void> {
    await this.change(appId, (levels) => {
      if (!levels.some((l) => l.level === levelNumber)) throw notFound('Level', { level: levelNumber });
      return levels.filter((l) => l.level !== levelNumber);
    });
  }
}
