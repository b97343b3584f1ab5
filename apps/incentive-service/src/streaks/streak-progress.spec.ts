import { advance, extend, newStreak, nextCheck, qualifies, streakView, type StreakRule, type StreakState } from './streak-progress';
import { periodIndex } from './streak-periods';

const rule = (over: Partial<StreakRule> = {}): StreakRule => ({ key: 'daily', period: 'DAILY', actionKeys: [], freezesPerMonth: 0, rewardLengths: [], ...over });
// 2026-06-01 (a Monday) as a day number.
const JUNE_1 = Date.UTC(2026, 5, 1) / 86_400_000;
const on = (state: StreakState, r: StreakRule, period: number, id = `e${period}`) =>
  extend(state, r, { period, id, at: new Date(period * 86_400_000), timeZone: 'UTC' });

function run(r: StreakRule, periods: number[]) {
  let state = newStreak('UTC');
  const changes = [];
  for (const p of periods) {
    const step = on(state, r, p);
    state = step.state;
    changes.push(...step.changes);
  }
  return { state, changes };
}

describe('streak progress', () => {
  it('extends once per period and counts consecutive periods', () => {
    const { state, changes } = run(rule(), [JUNE_1, JUNE_1, JUNE_1 + 1, JUNE_1 + 2]);
    expect(state.length).toBe(3);
    expect(state.longest).toBe(3);
    expect(changes.filter((c) => c.kind === 'extended').map((c) => c.kind === 'extended' && c.extension.length)).toEqual([1, 2, 3]);
  });

  it('ends on a missed period without freezes, and the next event starts again', () => {
    const { state, changes } = run(rule(), [JUNE_1, JUNE_1 + 1, JUNE_1 + 3]);
    expect(state.length).toBe(1);
    expect(state.longest).toBe(2);
    expect(changes.map((c) => c.kind)).toEqual(['extended', 'extended', 'ended', 'extended']);
    const last = changes.at(-1);
    expect(last?.kind === 'extended' && last.extension).toEqual({ key: 'daily', length: 1, freezesUsed: 0, restarted: true });
  });

  it('a freeze saves a missed day without adding to the length; freezes are per calendar month', () => {
    const r = rule({ freezesPerMonth: 1 });
    const saved = run(r, [JUNE_1, JUNE_1 + 2]);
    expect(saved.state.length).toBe(2);
    const ext = saved.changes.at(-1);
    expect(ext?.kind === 'extended' && ext.extension.freezesUsed).toBe(1);
    // A second miss in June ends it; the first miss in July is saved again.
    const june = run(r, [JUNE_1, JUNE_1 + 2, JUNE_1 + 4]);
    expect(june.state.length).toBe(1);
    const july1 = JUNE_1 + 30;
    const july = run(r, [july1 - 2, july1 - 1, july1 + 1]);
    expect(july.state.length).toBe(3);
  });

  it('two missed days with one freeze: the first is saved, then it ends', () => {
    const { changes } = run(rule({ freezesPerMonth: 1 }), [JUNE_1, JUNE_1 + 3]);
    expect(changes.map((c) => c.kind)).toEqual(['extended', 'frozen', 'ended', 'extended']);
  });

  it('ignores an event of a period already covered or older', () => {
    const first = run(rule(), [JUNE_1 + 5]);
    const older = on(first.state, rule(), JUNE_1 + 4);
    expect(older.changes).toEqual([]);
    expect(older.state).toBe(first.state);
  });

  it('marks reward lengths due once per streak that reaches them', () => {
    const r = rule({ rewardLengths: [2] });
    const { state } = run(r, [JUNE_1, JUNE_1 + 1, JUNE_1 + 2]);
    expect(state.rewardsDue).toEqual([2]);
    const again = run(r, [JUNE_1, JUNE_1 + 1, JUNE_1 + 5, JUNE_1 + 6]);
    expect(again.state.rewardsDue).toEqual([2]);
    expect(again.state.runStart).toBe(JUNE_1 + 5);
  });

  it('the view: at risk the period after, ended after a full missed period', () => {
    const r = rule({ freezesPerMonth: 2 });
    const { state } = run(r, [JUNE_1, JUNE_1 + 1]);
    expect(streakView(state, r, JUNE_1 + 1, 'UTC')).toMatchObject({ length: 2, extendedThisPeriod: true, atRisk: false, freezesLeft: 2 });
    expect(streakView(state, r, JUNE_1 + 2, 'UTC')).toMatchObject({ length: 2, extendedThisPeriod: false, atRisk: true, freezesLeft: 2 });
    // Day +2 missed: a freeze is used, and it is at risk again on day +3.
    expect(streakView(state, r, JUNE_1 + 3, 'UTC')).toMatchObject({ length: 2, atRisk: true, freezesLeft: 1 });
    expect(streakView(state, r, JUNE_1 + 5, 'UTC')).toMatchObject({ length: 0, atRisk: false, longest: 2 });
    expect(streakView(state, r, JUNE_1 + 1, 'UTC').periodStart.toISOString()).toBe('2026-06-02T00:00:00.000Z');
  });

  it('the pass looks again when the period after the last covered one has ended', () => {
    const { state } = run(rule(), [JUNE_1]);
    expect(nextCheck(state, rule())?.toISOString()).toBe('2026-06-03T00:00:00.000Z');
    expect(advance(state, rule(), JUNE_1 + 2).changes.map((c) => c.kind)).toEqual(['ended']);
    expect(nextCheck(newStreak('UTC'), rule())).toBeNull();
  });

  it('weekly streaks count ISO weeks', () => {
    const r = rule({ period: 'WEEKLY' });
    const w = periodIndex('WEEKLY', new Date('2026-06-03T00:00:00Z'), 'UTC');
    expect(run(r, [w, w, w + 1]).state.length).toBe(2);
  });

  it('qualifies by action key, any action when none is named', () => {
    expect(qualifies(rule(), 'x')).toBe(true);
    expect(qualifies(rule({ actionKeys: ['a'] }), 'x')).toBe(false);
    expect(qualifies(rule({ actionKeys: ['a'] }), 'a')).toBe(true);
  });
});
