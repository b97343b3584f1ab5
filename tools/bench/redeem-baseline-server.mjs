// The benchmark's baselines for POST /incentives/redeem and POST
// /incentives/marketplace/redeem: a bare Express app doing the essential
// store writes in one process and one database (take a unit with a
// conditional $inc, debit the balance with a conditional $inc, give the unit
// back if the debit is refused; a marketplace redemption also inserts the
// code it issues). No gateway, no API keys, no saga record, no second
// service, no outbox. Started by redeem.mjs as a child process; prints
// {"port": N} once it listens.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const mongoose = require('mongoose');

const db = await mongoose.createConnection(process.env.MONGODB_URL, { dbName: process.env.MONGODB_DB, maxPoolSize: 20 }).asPromise();
const items = db.collection('items');
const balances = db.collection('balances');
const codes = db.collection('codes');

/** Takes a unit of `goods`' good and debits `cost` coins, all or nothing; the answer's error code, or the balance left. */
async function takeAndDebit(goods, field, goodId, userId) {
  const good = await goods.findOneAndUpdate({ _id: goodId, [field]: { $gt: 0 } }, { $inc: { [field]: -1 } }, { returnDocument: 'after' });
  if (!good) return { error: 'OUT_OF_STOCK' };
  const balance = await balances.findOneAndUpdate({ _id: userId, coins: { $gte: good.coinCost } }, { $inc: { coins: -good.coinCost } }, { returnDocument: 'after' });
  if (!balance) {
    await goods.updateOne({ _id: goodId }, { $inc: { [field]: 1 } });
    return { error: 'INSUFFICIENT_BALANCE' };
  }
  return { coins: balance.coins };
}

const app = express();
app.use(express.json());
app.post('/redeem', async (req, res) => {
  const { userId, itemId } = req.body;
  const done = await takeAndDebit(items, 'inventory', itemId, userId);
  if (done.error) return res.status(422).json({ error: { code: done.error } });
  return res.status(201).json({ redemption: { userId, itemId, status: 'PENDING' }, balance: { coins: done.coins } });
});
app.post('/marketplace-redeem', async (req, res) => {
  const { userId, listingId } = req.body;
  const done = await takeAndDebit(items, 'quantity', listingId, userId);
  if (done.error) return res.status(422).json({ error: { code: done.error } });
  const discountCode = `MKT-${randomBytes(8).toString('hex').toUpperCase()}`;
  await codes.insertOne({ _id: discountCode, userId, listingId, createdAt: new Date() });
  return res.status(201).json({ redemption: { userId, listingId, discountCode }, balance: { coins: done.coins } });
});

const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => db.close().then(() => process.exit(0))));
