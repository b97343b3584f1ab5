import { createTestApp, waitForEvents, type TestApp } from '@ris/testing';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';

describe('incentive balances, levels, badges and milestones', () => {
  let app: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('progression'), createTestApp('progression other')]);
    await app.api.post('/incentives/actions', { key: 'quest', name: 'Quest', type: 'STANDARD', coins: 5, xp: 40, tokens: 1 });
    await app.api.post('/incentives/actions', { key: 'boss', name: 'Boss', type: 'STANDARD', coins: 0, xp: 500 });
  });

  describe('badges', () => {
    it('creates, lists and updates badge definitions', async () => {
      const created = await app.api.post('/incentives/badges', { key: 'gold', name: 'Gold', description: 'Level 3', imageUrl: 'https://example.com/gold.png' });
      expect(created.status).toBe(201);
      expect(created.body.badge).toEqual({
        key: 'gold',
        name: 'Gold',
        description: 'Level 3',
        imageUrl: 'https://example.com/gold.png',
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      });
      await app.api.post('/incentives/badges', { key: 'helper', name: 'Helper' });
      await app.api.post('/incentives/badges', { key: 'centurion', name: 'Centurion' });
      const patched = await app.api.patch('/incentives/badges/helper', { name: 'Kind helper' });
      expect(patched.body.badge).toMatchObject({ key: 'helper', name: 'Kind helper', description: null, imageUrl: null });
      const list = await app.api.get('/incentives/badges?limit=2');
      expect(list.body.badges.map((b: { key: string }) => b.key)).toEqual(['centurion', 'gold']);
      expect(list.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 3, totalPages: 2 });
    });

    it('refuses duplicate keys, bad bodies and unknown badges', async () => {
      expect((await app.api.post('/incentives/badges', { key: 'gold', name: 'Again' })).status).toBe(409);
      expect((await app.api.post('/incentives/badges', { key: 'x y', name: 'Bad key' })).status).toBe(400);
      expect((await app.api.post('/incentives/badges', { key: 'img', name: 'Img', imageUrl: 'not a url' })).status).toBe(400);
      expect((await app.api.patch('/incentives/badges/nope', { name: 'x' })).status).toBe(404);
      expect((await app.api.post('/incentives/badges/nope/award', { userId: 'u' })).status).toBe(404);
      expect((await app.api.post('/incentives/badges/gold/award', {})).status).toBe(400);
    });

    it('awards a badge by hand once per user, and publishes incentive.badge_awarded once', async () => {
      const first = await app.api.post('/incentives/badges/helper/award', { userId: 'grace' });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        awarded: true,
        badge: {
          userId: 'grace',
          key: 'helper',
          name: 'Kind helper',
          description: null,
          imageUrl: null,
          source: 'MANUAL',
          sourceId: null,
          awardedAt: expect.stringMatching(/Z$/),
        },
      });
      const again = await Promise.all([1, 2, 3].map(() => app.api.post('/incentives/badges/helper/award', { userId: 'grace' })));
      expect(again.map((r) => [r.status, r.body.awarded])).toEqual([[200, false], [200, false], [200, false]]);
      const mine = await app.api.get('/incentives/badges/user/grace');
      expect(mine.body.badges).toHaveLength(1);
      expect(mine.body.pagination.totalItems).toBe(1);
      const events = await waitForEvents('incentive.badge_awarded', (e) => e.appId === app.appId && e.data.userId === 'grace', 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(await waitForEvents('incentive.badge_awarded', (e) => e.appId === app.appId && e.data.userId === 'grace', 2, 300)).toHaveLength(1);
      expect(events[0].data).toEqual({ userId: 'grace', badgeKey: 'helper', source: 'MANUAL', awardedAt: first.body.badge.awardedAt });
    });
  });

  describe('levels', () => {
    it('defines a ladder whose thresholds rise with the level', async () => {
      const one = await app.api.post('/incentives/levels', { level: 1, name: 'Rookie', xpThreshold: 0 });
      expect(one.status).toBe(201);
      expect(one.body.level).toEqual({ level: 1, name: 'Rookie', xpThreshold: 0, rewards: { coins: 0, badgeKey: null, perks: [] } });
      await app.api.post('/incentives/levels', { level: 2, name: 'Regular', xpThreshold: 100, rewards: { coins: 10, perks: ['free_shipping'] } });
      await app.api.post('/incentives/levels', { level: 3, name: 'Expert', xpThreshold: 200, rewards: { coins: 25, badgeKey: 'gold', perks: ['priority'] } });
      await app.api.post('/incentives/levels', { level: 5, name: 'Legend', xpThreshold: 5000 });
      const list = await app.api.get('/incentives/levels');
      expect(list.body.levels.map((l: { level: number }) => l.level)).toEqual([1, 2, 3, 5]);
      expect(list.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 4, totalPages: 1 });
    });

    it('refuses thresholds that do not rise, duplicates, unknown badges and bad values', async () => {
      // Well-formed levels that do not fit the stored ladder or name a missing badge: 422.
      const falling = await app.api.post('/incentives/levels', { level: 4, name: 'Four', xpThreshold: 150 });
      expect([falling.status, falling.body.error.code]).toEqual([422, 'LADDER_ORDER']);
      expect(falling.body.error.message).toMatch(/rise/);
      expect((await app.api.post('/incentives/levels', { level: 4, name: 'Four', xpThreshold: 5000 })).status).toBe(422);
      expect((await app.api.post('/incentives/levels', { level: 2, name: 'Dup', xpThreshold: 150 })).status).toBe(409);
      const unknownBadge = await app.api.post('/incentives/levels', { level: 4, name: 'Four', xpThreshold: 300, rewards: { badgeKey: 'nope' } });
      expect([unknownBadge.status, unknownBadge.body.error.code]).toEqual([422, 'BADGE_NOT_FOUND']);
      expect((await app.api.post('/incentives/levels', { level: 0, name: 'Zero', xpThreshold: 0 })).status).toBe(400);
      expect((await app.api.post('/incentives/levels', { level: 4, name: 'Four', xpThreshold: -1 })).status).toBe(400);
      expect((await app.api.patch('/incentives/levels/3', { xpThreshold: 50 })).status).toBe(422);
      expect((await app.api.patch('/incentives/levels/9', { name: 'x' })).status).toBe(404);
      expect((await app.api.patch('/incentives/levels/abc', { name: 'x' })).status).toBe(400);
      expect((await app.api.delete('/incentives/levels/9')).status).toBe(404);
    });

    it('updates and deletes levels', async () => {
      await app.api.post('/incentives/levels', { level: 4, name: 'Four', xpThreshold: 1000 });
      const patched = await app.api.patch('/incentives/levels/4', { name: 'Master', rewards: { coins: 40 } });
      expect(patched.body.level).toEqual({ level: 4, name: 'Master', xpThreshold: 1000, rewards: { coins: 40, badgeKey: null, perks: [] } });
      expect((await app.api.delete('/incentives/levels/4')).status).toBe(204);
      expect((await app.api.get('/incentives/levels')).body.levels.map((l: { level: number }) => l.level)).toEqual([1, 2, 3, 5]);
    });
  });

  describe('milestones', () => {
    it('manages milestone definitions', async () => {
      const created = await app.api.post('/incentives/milestones/definitions', {
        key: 'xp-250',
        name: '250 XP',
        metric: 'XP',
        threshold: 250,
        rewards: { coins: 3, tokens: 2, badgeKey: 'centurion' },
      });
      expect(created.status).toBe(201);
      expect(created.body.milestone).toEqual({
        key: 'xp-250',
        name: '250 XP',
        description: null,
        metric: 'XP',
        threshold: 250,
        rewards: { coins: 3, xp: 0, tokens: 2, badgeKey: 'centurion' },
        streakKey: null,
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      });
      await app.api.post('/incentives/milestones/definitions', { key: 'events-3', name: 'Three quests', metric: 'EVENTS', threshold: 3 });
      await app.api.post('/incentives/milestones/definitions', { key: 'temp', name: 'Temp', metric: 'COINS_EARNED', threshold: 1 });
      expect((await app.api.get('/incentives/milestones/definitions/events-3')).body.milestone.metric).toBe('EVENTS');
      expect((await app.api.patch('/incentives/milestones/definitions/events-3', { threshold: 4 })).body.milestone.threshold).toBe(4);
      expect((await app.api.delete('/incentives/milestones/definitions/temp')).status).toBe(204);
      expect((await app.api.get('/incentives/milestones/definitions')).body.milestones.map((m: { key: string }) => m.key)).toEqual([
        'events-3',
        'xp-250',
      ]);
    });

    it('refuses bad definitions', async () => {
      const base = { key: 'm', name: 'M', metric: 'XP', threshold: 10 };
      expect((await app.api.post('/incentives/milestones/definitions', { ...base, key: 'xp-250' })).status).toBe(409);
      expect((await app.api.post('/incentives/milestones/definitions', { ...base, metric: 'LOGINS' })).status).toBe(400);
      expect((await app.api.post('/incentives/milestones/definitions', { ...base, threshold: 0 })).status).toBe(400);
      expect((await app.api.post('/incentives/milestones/definitions', { ...base, rewards: { coins: -1 } })).status).toBe(400);
      expect((await app.api.post('/incentives/milestones/definitions', { ...base, rewards: { badgeKey: 'nope' } })).status).toBe(422);
      expect((await app.api.get('/incentives/milestones/definitions/nope')).status).toBe(404);
      expect((await app.api.patch('/incentives/milestones/definitions/nope', { threshold: 3 })).status).toBe(404);
      expect((await app.api.delete('/incentives/milestones/definitions/nope')).status).toBe(404);
    });
  });

  describe('earning', () => {
    it('crosses several levels at once, granting each once, with badges, perks and milestones', async () => {
      const first = await app.api.post('/incentives/events', { userId: 'hero', actionKey: 'quest' });
      // 40 XP: level 1 (threshold 0) granted with the first XP.
      expect(first.body).toMatchObject({ levelUp: null, balance: { coins: 5, xp: 40, tokens: 1, level: 1 } });
      const big = await app.api.post('/incentives/events', { userId: 'hero', actionKey: 'boss' });
      expect(big.status).toBe(201);
      expect(big.body).toMatchObject({
        rewarded: { coins: 0, xp: 500, tokens: 0 },
        levelUp: { from: 1, to: 3 },
        badgesAwarded: expect.arrayContaining([
          { key: 'gold', name: 'Gold' },
          { key: 'centurion', name: 'Centurion' },
        ]),
        milestonesReached: [{ key: 'xp-250', name: '250 XP', metric: 'XP', threshold: 250 }],
        // 5 (quest) + 10 (level 2) + 25 (level 3) + 3 (milestone); tokens 1 + 2.
        balance: { coins: 43, xp: 540, tokens: 3, level: 3 },
      });
      const balance = (await app.api.get('/incentives/balances/hero')).body.balance;
      expect(balance).toEqual({
        userId: 'hero',
        coins: 43,
        tokens: 3,
        xp: 540,
        level: 3,
        levelName: 'Expert',
        nextLevel: { level: 5, name: 'Legend', xpThreshold: 5000, xpRemaining: 4460 },
        progress: (540 - 200) / (5000 - 200),
        perks: expect.arrayContaining(['free_shipping', 'priority']),
        coinsEarned: 43,
        rewardedEvents: 2,
        referrals: 0,
        updatedAt: expect.stringMatching(/Z$/),
        // Nothing pending, set to expire or owed in this app.
        pendingCoins: 0,
        pendingTokens: 0,
        expiring: [],
        debtCoins: 0,
        debtTokens: 0,
      });
      // Again: nothing more is granted.
      const more = await app.api.post('/incentives/events', { userId: 'hero', actionKey: 'quest' });
      expect(more.body).toMatchObject({ levelUp: null, badgesAwarded: [], milestonesReached: [], balance: { coins: 48, xp: 580 } });
      // Level 1 with the first XP, then levels 2 and 3 in one step.
      const levelUps = await waitForEvents('incentive.level_up', (e) => e.appId === app.appId && e.data.userId === 'hero', 2);
      expect(levelUps.map((e) => [e.data.from, e.data.to])).toEqual([
        [0, 1],
        [1, 3],
      ]);
      expect(levelUps[1].data.rewards).toEqual([
        { level: 2, coins: 10, badgeKey: null, perks: ['free_shipping'] },
        { level: 3, coins: 25, badgeKey: 'gold', perks: ['priority'] },
      ]);
      const milestoneEvents = await waitForEvents('incentive.milestone_reached', (e) => e.appId === app.appId && e.data.userId === 'hero', 1);
      expect(milestoneEvents[0].data).toEqual({ userId: 'hero', milestoneKey: 'xp-250', metric: 'XP', threshold: 250, reachedAt: expect.stringMatching(/Z$/) });
      const badgesEvents = await waitForEvents('incentive.badge_awarded', (e) => e.appId === app.appId && e.data.userId === 'hero', 2);
      expect(badgesEvents.map((e) => e.data.source).sort()).toEqual(['LEVEL', 'MILESTONE']);
    });

    it('lists reached milestones once per user, with a userId filter', async () => {
      // The 4th rewarded event reaches events-3 (its threshold was raised to 4).
      const fourth = await app.api.post('/incentives/events', { userId: 'hero', actionKey: 'quest' });
      expect(fourth.body.milestonesReached).toEqual([{ key: 'events-3', name: 'Three quests', metric: 'EVENTS', threshold: 4 }]);
      const reached = await app.api.get('/incentives/milestones?userId=hero');
      expect(reached.body.milestones.map((m: { key: string }) => m.key)).toEqual(['events-3', 'xp-250']);
      expect(reached.body.milestones.find((m: { key: string }) => m.key === 'xp-250')).toEqual({
        userId: 'hero',
        key: 'xp-250',
        name: '250 XP',
        metric: 'XP',
        threshold: 250,
        reachedAt: expect.stringMatching(/Z$/),
      });
      await app.api.post('/incentives/events', { userId: 'hero', actionKey: 'quest' });
      const again = await app.api.get('/incentives/milestones?userId=hero');
      expect(again.body.milestones.map((m: { key: string }) => m.key).sort()).toEqual(['events-3', 'xp-250']);
      expect((await app.api.get('/incentives/milestones?userId=nobody')).body.milestones).toEqual([]);
      expect((await app.api.get('/incentives/milestones?limit=0')).status).toBe(400);
      expect((await app.api.get('/incentives/badges/user/hero')).body.badges.map((b: { key: string }) => b.key).sort()).toEqual(['centurion', 'gold']);
    });

    it('lists the ledger with running balances, and its sum is the balance', async () => {
      const tx = await app.api.get('/incentives/balances/hero/transactions?limit=100');
      expect(tx.status).toBe(200);
      const reasons = tx.body.transactions.map((t: { reason: string }) => t.reason);
      expect(reasons.filter((r: string) => r === 'LEVEL_REWARD')).toHaveLength(3);
      expect(reasons.filter((r: string) => r === 'MILESTONE_REWARD')).toHaveLength(2);
      const newest = tx.body.transactions[0];
      expect(newest).toEqual({
        id: expect.stringMatching(/^led_/),
        seq: tx.body.pagination.totalItems,
        reason: expect.any(String),
        cause: expect.stringMatching(/^(EVENT|LEVEL|MILESTONE)$/),
        coins: expect.any(Number),
        xp: expect.any(Number),
        tokens: expect.any(Number),
        balanceAfter: expect.objectContaining({ coins: expect.any(Number) }),
        sourceId: expect.any(String),
        actionKey: expect.anything(),
        description: expect.anything(),
        // REVERSAL entries only.
        unrecovered: null,
        reversal: null,
        // A boosted event's and a STREAK_REWARD's only; pending changes and debts of actions with pendingDays and of reversals.
        boost: null,
        streak: null,
        pendingCoins: 0,
        pendingTokens: 0,
        debt: null,
        debtRepaid: null,
        createdAt: expect.stringMatching(/Z$/),
      });
      const balance = (await app.api.get('/incentives/balances/hero')).body.balance;
      expect(newest.balanceAfter).toEqual({ coins: balance.coins, xp: balance.xp, tokens: balance.tokens });
      const agreement = await ledgerAgreesWithBalance(app.api, 'hero');
      expect(agreement.totals).toEqual(agreement.balance);
      expect(agreement.gapless).toBe(true);
    });

    it('shows zero balances for a user with no activity, and lists balances by xp or coins', async () => {
      const none = await app.api.get('/incentives/balances/never-seen');
      expect(none.status).toBe(200);
      expect(none.body.balance).toMatchObject({ userId: 'never-seen', coins: 0, tokens: 0, xp: 0, level: 1, levelName: 'Rookie', perks: [], updatedAt: null });
      expect((await app.api.get('/incentives/balances/never-seen/transactions')).body).toEqual({
        transactions: [],
        pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 },
      });
      await app.api.post('/incentives/events', { userId: 'sidekick', actionKey: 'quest' });
      await app.api.post('/incentives/badges', { key: 'rich', name: 'Rich' });
      const byXp = await app.api.get('/incentives/balances?sort=xp');
      expect(byXp.body.balances.map((b: { userId: string }) => b.userId).slice(0, 2)).toEqual(['hero', 'sidekick']);
      const byCoins = await app.api.get('/incentives/balances?sort=coins&limit=1');
      expect(byCoins.body.balances[0].userId).toBe('hero');
      expect(byCoins.body.pagination.totalItems).toBeGreaterThanOrEqual(2);
      expect((await app.api.get('/incentives/balances?sort=karma')).status).toBe(400);
    });

    it("keeps apps apart: another app's users, levels, badges and milestones are invisible", async () => {
      expect((await other.api.get('/incentives/balances/hero')).body.balance).toMatchObject({ coins: 0, xp: 0, level: 0 });
      expect((await other.api.get('/incentives/balances/hero/transactions')).body.transactions).toEqual([]);
      expect((await other.api.get('/incentives/balances')).body.balances).toEqual([]);
      expect((await other.api.get('/incentives/levels')).body.levels).toEqual([]);
      expect((await other.api.get('/incentives/badges')).body.badges).toEqual([]);
      expect((await other.api.get('/incentives/badges/user/hero')).body.badges).toEqual([]);
      expect((await other.api.post('/incentives/badges/gold/award', { userId: 'hero' })).status).toBe(404);
      expect((await other.api.get('/incentives/milestones')).body.milestones).toEqual([]);
      expect((await other.api.get('/incentives/milestones/definitions/xp-250')).status).toBe(404);
      expect((await other.api.patch('/incentives/levels/2', { name: 'x' })).status).toBe(404);
    });
  });
});
