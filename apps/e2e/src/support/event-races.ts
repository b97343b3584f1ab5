import type { ApiResponse, TestApp } from '@ris/testing';

export interface EventAnswer {
  event: { id: string; userId: string; idempotencyKey: string | null };
  duplicate: boolean;
  rewarded: { coins: number; xp: number; tokens: number } | null;
  balance: { coins: number; xp: number; tokens: number; level: number };
}

/**
 * One round: `concurrency` POST /incentives/events at once, over a few users
 * and a few idempotency keys shared between them, with keyless events
 * mixed in, so that one group commit holds a key's first arrival, its
 * duplicates, and events without a key, while other batches hold the same
 * keys. Which request lands in which batch is the machine's timing: the
 * loop runs the round at several concurrencies, several times each.
 */
export async function raceRound(app: TestApp, actionKey: string, round: string, concurrency: number) {
  const users = Array.from({ length: 4 }, (_, i) => `${round}-u${i}`);
  const requests = Array.from({ length: concurrency }, (_, i) => ({
    userId: users[i % users.length],
    // Every fifth request has no key; the others share three keys per user.
    idempotencyKey: i % 5 === 4 ? null : `${round}-k${i % 3}`,
  }));
  const answers: ApiResponse[] = await Promise.all(
    requests.map(({ userId, idempotencyKey }) => app.api.post('/incentives/events', idempotencyKey ? { userId, actionKey, idempotencyKey } : { userId, actionKey })),
  );
  return { users, requests, answers };
}
