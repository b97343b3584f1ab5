import type { IncentiveBalance } from '../../api/types';
import { formatNumber } from '../../ui/format';

/** A user's level in words: the level itself, and what lies ahead of it. */
export interface LevelWords {
  level: string;
  ahead: string;
  /** How far to the next level, in percent (100 at the highest); null when the app defines no level. */
  percent: number | null;
}

/**
 * The balance's level as an operator should read it. Level 0 without a next
 * level only happens when the app defines no level at all (with a ladder, a
 * user below its first level has that level ahead): that is said, rather
 * than calling level 0 "the highest level".
 */
export function levelWords(balance: Pick<IncentiveBalance, 'level' | 'levelName' | 'nextLevel' | 'progress'>): LevelWords {
  const { level, levelName, nextLevel } = balance;
  if (level === 0 && nextLevel === null) return { level: 'None', ahead: 'No level ladder defined', percent: null };
  const percent = Math.round(balance.progress * 100);
  return {
    level: `${level}${levelName ? ` · ${levelName}` : ''}`,
    ahead: nextLevel ? `${formatNumber(nextLevel.xpRemaining)} XP to level ${nextLevel.level} · ${nextLevel.name} (${percent} %)` : 'The highest level',
    percent: nextLevel ? percent : 100,
  };
}
