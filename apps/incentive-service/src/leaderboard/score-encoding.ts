/**
 * How a board entry is stored in a Redis sorted set: XP in the score, the
 * tie-break in the member.
 *
 *   score  = −xp
 *   member = <13-digit zero-padded ms since 1970 when the XP was reached>:<userId>
 *
 * A sorted set orders by score, then, at equal scores, by member bytes. So
 * ZRANGE (ascending) yields more XP first (−xp is smaller), then, at equal
 * XP, whoever reached it first (fixed-width digits compare like numbers),
 * then, in the same millisecond, the user id in ascending order. A page is
 * one ZRANGE: no second lookup per entry, no re-sorting in Lua.
 *
 * Why not pack the time into the score (as before: xp · 2^31 + inverted
 * seconds): a double holds 53 bits exactly, and milliseconds over the life
 * of an all-time board take 41 of them (2^41 ms ≈ 70 years), leaving XP
 * 12 bits (4,095) on that board. A period board needs fewer (27 bits for a
 * day, 32 for a month), but the all-time board's XP is everything a user
 * ever earned. With the time in the member, the score carries XP alone and
 * every XP up to MAX_XP ranks exactly and breaks ties to the millisecond,
 * on every board.
 *
 * What this costs: a reader that starts from a user id (rank of user X)
 * needs the member, i.e. the time; the users hash holds it (see
 * leaderboard-store.ts, userMeta), and that hash is read for the coins
 * anyway. 14 bytes more per member.
 */

/** The largest XP a balance, an amount or a threshold may hold: the largest integer a double (a score) holds exactly. */
export const MAX_XP = Number.MAX_SAFE_INTEGER;

/** Digits of the time in a member: ms since 1970 fit 13 digits until the year 2286. */
export const TIE_DIGITS = 13;
const MAX_TIE_MS = 10 ** TIE_DIGITS - 1;

function checkXp(xp: number): void {
  if (!Number.isSafeInteger(xp) || xp < 0) throw new RangeError(`xp must be a whole number from 0 to ${MAX_XP}, got ${xp}`);
}

export function boardScore(xp: number): number {
  checkXp(xp);
  // 0, not −0: Redis would print "-0".
  return xp === 0 ? 0 : -xp;
}

/** XP from a score as Redis returns it. */
export function xpOfScore(score: string | number): number {
  const value = Number(score);
  return value === 0 ? 0 : -value;
}

/** The tie-break part of a member: when the XP was reached, in ms, fixed width (null: never, which sorts first). */
export function tieOf(reachedAt: Date | null): string {
  const ms = Math.min(MAX_TIE_MS, Math.max(0, reachedAt ? Math.floor(reachedAt.getTime()) : 0));
  return String(ms).padStart(TIE_DIGITS, '0');
}

export function boardMember(userId: string, reachedAt: Date | null): string {
  return `${tieOf(reachedAt)}:${userId}`;
}

/** The user id in a member (everything after the time and its colon). */
export function userIdOfMember(member: string): string {
  return member.slice(TIE_DIGITS + 1);
}
