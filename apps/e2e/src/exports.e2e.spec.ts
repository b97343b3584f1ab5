import { parse } from 'csv-parse/sync';
import { createTestApp, eventually, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

const COUPON = { amount: 4, fulfillmentType: 'COUPON_CODE' };

/** An export as the client gets it: its header, its type and file name, and its rows parsed back by a real CSV parser. */
async function download(app: TestApp, path: string) {
  const res = await fetch(`${app.api.baseUrl}${path}`, { headers: { authorization: `Bearer ${app.apiKey}` } });
  const text = await res.text();
  const rows = res.status === 200 ? (parse(text, { columns: true }) as Array<Record<string, string>>) : [];
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text, rows };
}

/** Every page of a list, as the API gives it. */
async function everyPage<T>(app: TestApp, path: string, key: string): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page += 1) {
    const res = await app.api.get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
    all.push(...(res.body[key] as T[]));
    if (page >= res.body.pagination.totalPages) return all;
  }
}

/** A value of the API's JSON as its CSV cell reads. */
const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The fields of the objects a listed item may hold as null (a ledger entry's, set on REVERSAL, boosted or STREAK_REWARD entries only). */
const NULLABLE_OBJECTS: Record<string, string[]> = {
  unrecovered: ['coins', 'xp', 'tokens'],
  reversal: ['conversionId', 'reversalId', 'reason'],
  boost: ['id', 'name', 'multiplier'],
  streak: ['key', 'length'],
  debt: ['coins', 'tokens'],
  debtRepaid: ['coins', 'tokens'],
};

/** A list's JSON item as its export's row reads: nested objects flattened (Campaign.name → campaignName), text a spreadsheet would run as a formula after a '. */
function asRow(item: Record<string, unknown>): Record<string, string> {
  const row: Record<string, string> = {};
  const put = (header: string, value: unknown) => {
    row[header] = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : cell(value);
  };
  const flat = (field: string, key: string) => `${field[0].toLowerCase()}${field.slice(1)}${key[0].toUpperCase()}${key.slice(1)}`;
  for (const [field, value] of Object.entries(item)) {
    // A null object still has a column per field of its schema, each empty.
    if (value === null && NULLABLE_OBJECTS[field]) for (const key of NULLABLE_OBJECTS[field]) put(flat(field, key), null);
    else if (value === null || typeof value !== 'object') put(field, value);
    else for (const [key, inner] of Object.entries(value)) put(flat(field, key), inner);
  }
  return row;
}

/** An export equal to every page of its list, in order, header included; its rows. */
async function expectExportOfList(app: TestApp, exportPath: string, listPath: string, key: string) {
  const file = await download(app, exportPath);
  expect([file.status, file.type]).toEqual([200, 'text/csv; charset=utf-8']);
  const listed = (await everyPage<Record<string, unknown>>(app, listPath, key)).map(asRow);
  expect(file.rows).toEqual(listed);
  if (listed.length > 0) expect(file.text.slice(0, file.text.indexOf('\r\n'))).toBe(Object.keys(listed[0]).join(','));
  return file.rows;
}

describe('exports (CSV)', () => {
  let app: TestApp;
  let campaignId: string;

  beforeAll(async () => {
    app = await createTestApp('exports');
    campaignId = (await createCampaign(app, { name: 'Exported' })).id;
    const { referralCode } = await createReferral(app, campaignId, 'ann');
    // A referee id a spreadsheet would run as a formula, and ones with a comma, a quote and a line break.
    for (const refereeId of ['=HYPERLINK("http://evil.example")', '+1 friend', 'a,b', 'say "hi"', '@home', '-7']) await convert(app, referralCode, refereeId, { amount: 12.5 });
    for (let i = 0; i < 120; i += 1) await convert(app, referralCode, `buyer-${String(i).padStart(3, '0')}`);
  });

  it('GET /conversions/export: every record the list has, in its order, as the list gives them', async () => {
    const file = await download(app, `/conversions/export?campaignId=${campaignId}`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('text/csv; charset=utf-8');
    expect(file.disposition).toMatch(/^attachment; filename="conversions-\d{4}-\d{2}-\d{2}T\d{4}Z\.csv"$/);
    const listed = await everyPage<Record<string, unknown>>(app, `/conversions?campaignId=${campaignId}`, 'conversions');
    expect(listed).toHaveLength(126);
    expect(file.rows.map((r) => r.id)).toEqual(listed.map((c) => c.id));
    for (const [i, c] of listed.entries()) {
      const row = file.rows[i];
      for (const field of ['conversionId', 'status', 'referrerId', 'amount', 'rewardAmount', 'convertedAt', 'createdAt'] as const) {
        expect([c.id, field, row[field]]).toEqual([c.id, field, cell(c[field])]);
      }
      expect(row.campaignName).toBe('Exported');
    }
  });

  it('neutralises cells a spreadsheet would run as a formula, and keeps commas, quotes and numbers intact', async () => {
    const { rows } = await download(app, `/conversions/export?campaignId=${campaignId}`);
    const referees = rows.map((r) => r.refereeId);
    expect(referees).toEqual(expect.arrayContaining([`'=HYPERLINK("http://evil.example")`, "'+1 friend", 'a,b', 'say "hi"', "'@home", "'-7"]));
    expect(rows.filter((r) => r.amount === '12.5')).toHaveLength(6);
  });

  describe('of referrals, rewards, a ledger and participants', () => {
    let couponsId: string;

    beforeAll(async () => {
      // A ledger of two batches and more (one entry a debit with a note a spreadsheet would run), and two other balances; first,
      // so that the directory has taken in the engine's events by the end of this setup.
      expect((await app.api.post('/incentives/actions', { key: 'buy', name: 'Buy', type: 'STANDARD', coins: 5 })).status).toBe(201);
      const events = [...Array.from({ length: 520 }, () => ({ userId: 'saver', actionKey: 'buy' })), { userId: 'spender', actionKey: 'buy' }, { userId: 'spender', actionKey: 'buy' }, { userId: 'plain', actionKey: 'buy' }];
      const recorded = await app.api.post('/incentives/events/bulk', { events });
      expect([recorded.status, recorded.body.results.filter((r: { error?: unknown }) => r.error).length]).toEqual([200, 0]);
      expect((await app.api.post('/incentives/balances/saver/adjustments', { coins: -5, note: '=2+3' })).status).toBe(201);
      // More referrers in the campaign (a page and more, some a spreadsheet would run as a formula).
      const referrers = ['=SUM(1+1)', '+referrer', '@ref', '-ref', ...Array.from({ length: 100 }, (_, i) => `seller-${String(i).padStart(3, '0')}`)];
      for (let i = 0; i < referrers.length; i += 10) await Promise.all(referrers.slice(i, i + 10).map((referrerId) => createReferral(app, campaignId, referrerId)));
      // Coupons on both sides, for a filter of the rewards; referees with e-mail addresses, for a search of the participants.
      couponsId = (await createCampaign(app, { name: 'Coupons', referrerReward: COUPON, refereeReward: COUPON })).id;
      const { referralCode } = await createReferral(app, couponsId, '@coupons');
      for (const [refereeId, email] of [['=1+2', 'c@one.test'], ['-3', 'c@two.test'], ['plain', 'c@three.test']]) await convert(app, referralCode, refereeId, { email });
      // Everyone in the directory, the engine's users marked as such (then none is both a balance and one of the people without one).
      const total = async (sort: string) => (await app.api.get(`/participants?sort=${sort}&limit=1`)).body.pagination.totalItems as number;
      await eventually(async () => [await total('USER_ID'), await total('COINS')], (totals) => totals.every((n) => n === 237));
    }, 120_000);

    it('GET /referrals/export: the referrals of every page, with their filters', async () => {
      const rows = await expectExportOfList(app, `/referrals/export?campaignId=${campaignId}`, `/referrals?campaignId=${campaignId}`, 'referrals');
      expect(rows).toHaveLength(105);
      expect(rows.map((r) => r.referrerId)).toEqual(expect.arrayContaining(["'=SUM(1+1)", "'+referrer", "'@ref", "'-ref", 'ann']));
      expect(rows.find((r) => r.referrerId === 'ann')).toMatchObject({ status: 'COMPLETED', campaignName: 'Exported', campaignStatus: 'ACTIVE' });
      expect(await expectExportOfList(app, '/referrals/export?referrerId=%40coupons', '/referrals?referrerId=%40coupons', 'referrals')).toHaveLength(1);
      const one = `campaignId=${campaignId}&referrerId=${encodeURIComponent('=SUM(1+1)')}`;
      expect((await expectExportOfList(app, `/referrals/export?${one}`, `/referrals?${one}`, 'referrals')).map((r) => r.referrerId)).toEqual(["'=SUM(1+1)"]);
    });

    it('GET /rewards/export: the rewards of every page, with their filters', async () => {
      expect(await expectExportOfList(app, '/rewards/export', '/rewards', 'rewards')).toHaveLength(132);
      const coupons = await expectExportOfList(app, '/rewards/export?fulfillmentType=COUPON_CODE', '/rewards?fulfillmentType=COUPON_CODE', 'rewards');
      expect(coupons.map((r) => r.userId).sort()).toEqual(["'-3", "'=1+2", "'@coupons", "'@coupons", "'@coupons", 'plain']);
      expect(new Set(coupons.map((r) => r.campaignId))).toEqual(new Set([couponsId]));
      expect(await expectExportOfList(app, '/rewards/export?userId=ann&status=CANCELLED', '/rewards?userId=ann&status=CANCELLED', 'rewards')).toEqual([]);
    });

    it("GET /incentives/balances/{userId}/transactions/export: the user's whole ledger, newest first", async () => {
      const rows = await expectExportOfList(app, '/incentives/balances/saver/transactions/export', '/incentives/balances/saver/transactions', 'transactions');
      expect(rows).toHaveLength(521);
      expect(rows[0]).toMatchObject({ seq: '521', reason: 'ADJUSTMENT', coins: '-5', description: "'=2+3", balanceAfterCoins: '2595' });
      expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 521 }, (_, i) => 521 - i));
      expect(await expectExportOfList(app, '/incentives/balances/spender/transactions/export', '/incentives/balances/spender/transactions', 'transactions')).toHaveLength(2);
      const nobody = await download(app, '/incentives/balances/nobody/transactions/export');
      expect([nobody.status, nobody.rows]).toEqual([200, []]);
    });

    it('GET /participants/export: the people of every page, in each sort and search', async () => {
      const byCoins = await expectExportOfList(app, '/participants/export?sort=COINS', '/participants?sort=COINS', 'participants');
      // ann, her 126 referees, 104 more referrers, the coupons' referrer and three referees, and the engine's saver and spender.
      expect(byCoins).toHaveLength(237);
      expect(byCoins.slice(0, 4).map((r) => [r.userId, r.coins])).toEqual([['saver', '2595'], ['spender', '10'], ['plain', '5'], ["'+1 friend", '0']]);
      expect(byCoins.map((r) => r.userId)).toEqual(expect.arrayContaining(["'=HYPERLINK(\"http://evil.example\")", "'@coupons", "'=1+2"]));
      for (const sort of ['LAST_ACTIVITY', 'USER_ID', 'REFERRALS', 'REWARD_VALUE']) {
        expect(await expectExportOfList(app, `/participants/export?sort=${sort}`, `/participants?sort=${sort}`, 'participants')).toHaveLength(237);
      }
      const found = await expectExportOfList(app, '/participants/export?q=buyer-1&sort=CONVERSIONS', '/participants?q=buyer-1&sort=CONVERSIONS', 'participants');
      expect(found.map((r) => r.userId)).toEqual(Array.from({ length: 20 }, (_, i) => `buyer-1${String(i).padStart(2, '0')}`));
      const byEmail = await expectExportOfList(app, '/participants/export?q=c%40&sort=COINS', '/participants?q=c%40&sort=COINS', 'participants');
      expect(byEmail.map((r) => [r.userId, r.email])).toEqual([['plain', 'c@three.test'], ["'-3", 'c@two.test'], ["'=1+2", 'c@one.test']]);
    });
  });

  it('answers a bad filter with the error envelope, before any file', async () => {
    const res = await download(app, '/conversions/export?status=NOPE');
    expect([res.status, JSON.parse(res.text).error.code]).toEqual([400, 'VALIDATION_ERROR']);
    for (const path of ['/rewards/export?fulfillmentType=NOPE', '/participants/export?sort=HEIGHT', '/referrals/export?campaignId=']) {
      const refused = await download(app, path);
      expect([path, refused.status, JSON.parse(refused.text).error.code]).toEqual([path, 400, 'VALIDATION_ERROR']);
    }
  });
});
