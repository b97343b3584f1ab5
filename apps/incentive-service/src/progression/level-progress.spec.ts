import { ladderProblem, levelAt, levelNumberAt, levelProgress, levelsDue, type LevelDef } from './level-progress';

const level = (n: number, xpThreshold: number): LevelDef => ({
  level: n,
  name: `L${n}`,
  xpThreshold,
  rewards: { coins: n * 10, badgeKey: null, perks: [] },
});
const ladder = [level(1, 0), level(2, 100), level(3, 250), level(4, 500)];

describe('levels', () => {
  it('requires thresholds to rise with the level', () => {
    expect(ladderProblem(ladder)).toBeNull();
    expect(ladderProblem([level(2, 100), level(1, 0)])).toBeNull();
    expect(ladderProblem([level(1, 0), level(2, 0)])).toMatch(/rise/);
    expect(ladderProblem([level(1, 50), level(3, 40)])).toMatch(/level 3/);
    expect(ladderProblem([level(1, 0), level(1, 10)])).toMatch(/twice/);
  });

  it('finds the level for an XP total', () => {
    expect(levelAt([], 1000)).toBeNull();
    expect(levelNumberAt([level(1, 10)], 9)).toBe(0);
    expect(levelNumberAt(ladder, 0)).toBe(1);
    expect(levelNumberAt(ladder, 249)).toBe(2);
    expect(levelNumberAt(ladder, 250)).toBe(3);
    expect(levelNumberAt(ladder, 10_000)).toBe(4);
  });

  it('reports progress to the next level', () => {
    expect(levelProgress(ladder, 175)).toEqual({
      level: 2,
      levelName: 'L2',
      next: { level: 3, name: 'L3', xpThreshold: 250, xpRemaining: 75 },
      progress: 0.5,
    });
    expect(levelProgress(ladder, 900)).toMatchObject({ level: 4, next: null, progress: 1 });
    expect(levelProgress([], 900)).toEqual({ level: 0, levelName: null, next: null, progress: 0 });
    expect(levelProgress([level(1, 100)], 25)).toMatchObject({ level: 0, next: { level: 1, xpRemaining: 75 }, progress: 0.25 });
  });

  it('grants every crossed level once, even several at once', () => {
    expect(levelsDue(ladder, 260, []).map((l) => l.level)).toEqual([1, 2, 3]);
    expect(levelsDue(ladder, 260, [1]).map((l) => l.level)).toEqual([2, 3]);
    expect(levelsDue(ladder, 260, [1, 2, 3])).toEqual([]);
    expect(levelsDue(ladder, 99, [1, 2])).toEqual([]);
  });
});
