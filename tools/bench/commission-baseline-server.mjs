// The bare baselines of commissions.mjs for a purchase and a reversal: an
// Express handler doing each operation's essential store work with the
// plain driver, in one process and one database, and nothing else (no
// gateway, no API key, no validation, no RPC, no idempotency journal, no
// events, no outbox):
//   POST /baseline/purchase {saleId, amount, externalId}: read the sale (the
//     conversion), insert the purchase (its _id from the sale and the
//     externalId, so the same payment is stored once, as the service's) and
//     one reward (the campaign's share: 10 %, at most 50), bump the
//     campaign's reward value;
//   POST /baseline/reversal {saleId, amount}: read the sale, claim the part
//     of it with a conditional update of its reversedAmount (from the value
//     read, never past the sale: 409 when another reversal moved it first),
//     reduce its reward with a conditional update (not cancelled, its share
//     of the standing sale), insert the reversal record, bump the campaign's
//     reversal count and reward value.
// Arguments: the database URL and name, and how many sales to create at
// start (sale-0 … sale-N-1, each of SALE_AMOUNT with its reward), which the
// benchmark spreads its requests over. Prints its port on stdout.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const { MongoClient, ObjectId } = require('mongodb');

const [mongoUrl, dbName, saleCount, saleAmount] = process.argv.slice(2);
const PERCENT = 10;
const MAX_AMOUNT = 50;
const share = (amount) => Math.min(MAX_AMOUNT, Math.round(amount * PERCENT) / 100);
const cents = (value) => Math.round(value * 100) / 100;

const client = await new MongoClient(mongoUrl, { maxPoolSize: 20 }).connect();
const db = client.db(dbName);
const sales = db.collection('commission_sales');
const purchases = db.collection('commission_purchases');
const rewards = db.collection('commission_rewards');
const reversals = db.collection('commission_reversals');
const counters = db.collection('commission_counters');
const now = new Date();
const amount = Number(saleAmount);
await sales.insertMany(
  Array.from({ length: Number(saleCount) }, (_, i) => ({ _id: `sale-${i}`, campaignId: 'campaign', referrerId: `user-${i}`, amount, reversedAmount: 0, rewardId: `rwd-sale-${i}`, convertedAt: now })),
);
await rewards.insertMany(Array.from({ length: Number(saleCount) }, (_, i) => ({ _id: `rwd-sale-${i}`, saleId: `sale-${i}`, userId: `user-${i}`, earnedAmount: share(amount), amount: share(amount), status: 'APPROVED' })));
await counters.insertOne({ _id: 'campaign', totalRewardValue: 0, totalReversals: 0 });

// The benchmark stops it between scenarios: in-flight requests do not matter then.
process.on('SIGTERM', () => process.exit(0));

/** A handler of a sale's operation: `work(sale, body)` once the sale is read (404 without it; 500 on a store error). */
const onSale = (work) => async (req, res) => {
  try {
    const sale = await sales.findOne({ _id: String(req.body?.saleId ?? '') });
    if (!sale) return res.status(404).json({ success: false });
    const [status, answer] = await work(sale, req.body);
    return res.status(status).json(answer);
  } catch {
    return res.status(500).json({ success: false });
  }
};

const app = express();
app.use(express.json());
app.post(
  '/baseline/purchase',
  onSale(async (sale, body) => {
    const value = Number(body.amount);
    const purchaseId = `pur-${sale._id}-${String(body.externalId ?? new ObjectId().toHexString())}`;
    const at = new Date();
    await purchases.insertOne({ _id: purchaseId, saleId: sale._id, campaignId: sale.campaignId, amount: value, externalId: body.externalId ?? null, occurredAt: at, reversedAmount: 0, status: 'ACTIVE' });
    const reward = share(value);
    await Promise.all([
      rewards.insertOne({ _id: `rwd-${purchaseId}`, saleId: sale._id, purchaseId, userId: sale.referrerId, earnedAmount: reward, amount: reward, status: 'APPROVED', createdAt: at }),
      counters.updateOne({ _id: 'campaign' }, { $inc: { totalRewardValue: reward } }),
    ]);
    return [201, { purchase: { id: purchaseId }, rewards: [{ amount: reward }] }];
  }),
);
app.post(
  '/baseline/reversal',
  onSale(async (sale, body) => {
    const value = Number(body.amount);
    const after = cents(sale.reversedAmount + value);
    if (after > sale.amount) return [422, { error: { code: 'REVERSAL_EXCEEDS_SALE' } }];
    const claimed = await sales.updateOne({ _id: sale._id, reversedAmount: sale.reversedAmount }, { $set: { reversedAmount: after } });
    if (claimed.modifiedCount !== 1) return [409, { error: { code: 'CONFLICT' } }];
    const keep = cents(share(sale.amount) * ((sale.amount - after) / sale.amount));
    const reduced = await rewards.findOneAndUpdate({ _id: sale.rewardId, status: { $ne: 'CANCELLED' }, amount: { $gt: keep } }, { $set: { amount: keep } }, { returnDocument: 'before' });
    const taken = reduced ? cents(reduced.amount - keep) : 0;
    const reversalId = `rvs_${new ObjectId().toHexString()}`;
    await Promise.all([
      reversals.insertOne({ _id: reversalId, saleId: sale._id, reason: body.reason ?? 'REFUND', amount: value, rewardAmountReversed: taken, createdAt: new Date() }),
      counters.updateOne({ _id: 'campaign' }, { $inc: { totalReversals: 1, totalRewardValue: -taken } }),
    ]);
    return [201, { reversal: { id: reversalId, amount: value, rewardAmountReversed: taken } }];
  }),
);
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
