/**
 * Leaderboard scores. A Redis sorted-set score is an IEEE-754 double, which
 * holds every integer below 2^53 exactly. One score carries two things:
 *
 *   score = xp · 2^31 + (2^31 − 1 − secondsSince2025)
 *
 * so more XP ranks higher and, at equal XP, whoever reached it earlier has
 * the larger tie term and ranks higher. 31 bits of seconds cover 2025 to
 * 2093.
 *
 * Precision bound: for xp < 2^22 (4,194,304) the score is exact to the
 * second. Above that, the lowest bits of the tie term are dropped (each
 * doubling of XP halves the tie-break resolution: 2 s, 4 s, …) so that the
 * score stays an exact integer: XP itself, and therefore the order by XP,
 * stays exact up to 2^52. Users who reach the same XP in the same second
 * (at the resolution above) tie exactly; Redis then orders them by user id.
 */
export const TIE_BITS = 31;
const TIE_SPAN = 2 ** TIE_BITS;
export const SCORE_EPOCH_MS = Date.UTC(2025, 0, 1);
/** The largest XP whose score still breaks ties to the second. */
export const MAX_XP_WITH_SECOND_TIES = 2 ** (53 - TIE_BITS) - 1;

export function encodeScore(xp: number, reachedAt: Date): number {
  if (!Number.isSafeInteger(xp) || xp < 0) throw new RangeError(`xp must be a non-negative whole number, got ${xp}`);
  const seconds = Math.min(TIE_SPAN - 1, Math.max(0, Math.floor((reachedAt.getTime() - SCORE_EPOCH_MS) / 1000)));
  let tie = TIE_SPAN - 1 - seconds;
  const xpBits = xp === 0 ? 0 : Math.floor(Math.log2(xp)) + 1;
  const excess = xpBits - (53 - TIE_BITS);
  if (excess > 0) tie = Math.floor(tie / 2 ** excess) * 2 ** excess;
  return xp * TIE_SPAN + tie;
}

/** XP from a score; exact because dividing by a power of two is. */
export function decodeXp(score: number): number {
  return Math.floor(score / TIE_SPAN);
}
