import { createTestApp, type TestApp } from '@ris/testing';
import { raceRound, type EventAnswer } from './support/event-races';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';

describe('incentive events: concurrent duplicates beside keyless events', () => {
  let app: TestApp;
  const coins = 2;

  beforeAll(async () => {
    app = await createTestApp('event races');
    expect((await app.api.post('/incentives/actions', { key: 'tap', name: 'Tap', type: 'STANDARD', coins, xp: 1 })).status).toBe(201);
  });

  it('answers every request once, with no 5xx, each key with its first outcome, and balances equal to their ledgers', async () => {
    let round = 0;
    for (const concurrency of [8, 30, 60]) {
      for (let repeat = 0; repeat < 3; repeat += 1) {
        const name = `c${concurrency}-r${(round += 1)}`;
        const { users, requests, answers } = await raceRound(app, 'tap', name, concurrency);

        // Nothing failed: a duplicate's race is no reason for anyone's 5xx.
        expect([name, answers.filter((a) => a.status >= 500).map((a) => [a.status, a.body?.error?.message])]).toEqual([name, []]);
        expect(answers.every((a) => a.status === 200 || a.status === 201)).toBe(true);

        const byKey = new Map<string, EventAnswer[]>();
        const keyless: EventAnswer[] = [];
        for (const [i, { userId, idempotencyKey }] of requests.entries()) {
          const body = answers[i].body as EventAnswer;
          expect(body.event.userId).toBe(userId);
          // 201 for a new event, 200 for an answer from an earlier one.
          expect(answers[i].status).toBe(body.duplicate ? 200 : 201);
          if (idempotencyKey === null) keyless.push(body);
          else byKey.set(`${userId}/${idempotencyKey}`, [...(byKey.get(`${userId}/${idempotencyKey}`) ?? []), body]);
        }
        // A key: one event, recorded once (one answer is not a duplicate), every answer its first outcome.
        for (const [key, same] of byKey) {
          expect([key, same.filter((a) => !a.duplicate).length]).toEqual([key, 1]);
          const first = same.find((a) => !a.duplicate) as EventAnswer;
          for (const a of same) expect([key, a.event.id, a.rewarded, a.balance]).toEqual([key, first.event.id, first.rewarded, first.balance]);
        }
        // Keyless: each its own new event.
        expect(keyless.every((a) => !a.duplicate && a.rewarded?.coins === coins)).toBe(true);
        expect(new Set(keyless.map((a) => a.event.id)).size).toBe(keyless.length);

        for (const userId of users) {
          const keyed = [...byKey.keys()].filter((k) => k.startsWith(`${userId}/`)).length;
          const own = keyless.filter((a) => a.event.userId === userId).length;
          const listed = (await app.api.get(`/incentives/events?userId=${userId}&limit=100`)).body;
          expect([userId, listed.pagination.totalItems]).toEqual([userId, keyed + own]);
          const agreement = await ledgerAgreesWithBalance(app.api, userId);
          expect([userId, agreement.balance.coins, agreement.totals, agreement.gapless]).toEqual([userId, (keyed + own) * coins, agreement.balance, true]);
        }
      }
    }
  }, 120_000);
});
