/** A level of an app's ladder (docs/product-decisions.md §7.7). */
export interface LevelDef {
  level: number;
  name: string;
  xpThreshold: number;
  rewards: { coins: number; badgeKey: string | null; perks: string[] };
}

export const byLevel = (a: LevelDef, b: LevelDef) => a.level - b.level;

/** Why a ladder is invalid, or null: thresholds must rise strictly with the level number. */
export function ladderProblem(levels: LevelDef[]): string | null {
  const sorted = [...levels].sort(byLevel);
  for (let i = 1; i < sorted.length; i += 1) {
    const [lower, higher] = [sorted[i - 1], sorted[i]];
    if (lower.level === higher.level) return `level ${higher.level} is defined twice`;
    if (higher.xpThreshold <= lower.xpThreshold) {
      return `xpThreshold must rise with the level: level ${higher.level} (${higher.xpThreshold} XP) is not above level ${lower.level} (${lower.xpThreshold} XP)`;
    }
  }
  return null;
}

/** The highest level whose threshold the XP has reached, or null below the first. */
export function levelAt(levels: LevelDef[], xp: number): LevelDef | null {
  let reached: LevelDef | null = null;
  for (const level of [...levels].sort(byLevel)) {
    if (xp >= level.xpThreshold) reached = level;
  }
  return reached;
}

export const levelNumberAt = (levels: LevelDef[], xp: number) => levelAt(levels, xp)?.level ?? 0;

export interface LevelProgress {
  level: number;
  levelName: string | null;
  next: { level: number; name: string; xpThreshold: number; xpRemaining: number } | null;
  /** 0..1 from the current level's threshold to the next one's (1 at the top). */
  progress: number;
}

export function levelProgress(levels: LevelDef[], xp: number): LevelProgress {
  const sorted = [...levels].sort(byLevel);
  const current = levelAt(sorted, xp);
  const next = sorted.find((l) => l.xpThreshold > xp && (!current || l.level > current.level)) ?? null;
  if (!next) return { level: current?.level ?? 0, levelName: current?.name ?? null, next: null, progress: sorted.length ? 1 : 0 };
  const floor = current?.xpThreshold ?? 0;
  const span = next.xpThreshold - floor;
  return {
    level: current?.level ?? 0,
    levelName: current?.name ?? null,
    next: { level: next.level, name: next.name, xpThreshold: next.xpThreshold, xpRemaining: next.xpThreshold - xp },
    progress: span > 0 ? Math.min(1, Math.max(0, (xp - floor) / span)) : 0,
  };
}

/**
 * Levels the XP has reached whose rewards were not granted yet, lowest
 * first. Crossing several levels at once yields each of them; a level
 * already granted is never granted again (even if XP fell and rose again).
 */
export function levelsDue(levels: LevelDef[], xp: number, granted: readonly number[]): LevelDef[] {
  const done = new Set(granted);
  return [...levels].sort(byLevel).filter((l) => l.xpThreshold <= xp && !done.has(l.level));
}

/**
 * The XP of the users at `level` on this ladder, as a range: [its
 * threshold, the next level's) — below the first threshold for level 0;
 * null when no user can be at it (not a level of the ladder).
 */
export function xpRangeOfLevel(ladder: LevelDef[], level: number): { min: number; below: number | null } | null {
  const sorted = [...ladder].sort(byLevel);
  if (level === 0) return { min: 0, below: sorted[0]?.xpThreshold ?? null };
  const at = sorted.findIndex((l) => l.level === level);
  if (at === -1) return null;
  return { min: sorted[at].xpThreshold, below: sorted[at + 1]?.xpThreshold ?? null };
}
