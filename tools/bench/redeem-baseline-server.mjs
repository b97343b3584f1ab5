// The benchmark's baseline for POST /incentives/redeem: a bare Express app
// doing the same two store writes in one process and one database (take a
// unit with a conditional $inc, debit the balance with a conditional $inc,
// give the unit back if the debit is refused). No gateway, no API keys, no
// saga record, no second service, no outbox. Started by redeem.mjs as a
// child process; prints {"port": N} once it listens.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const mongoose = require('mongoose');

const db = await mongoose.createConnection(process.env.MONGODB_URL, { dbName: process.env.MONGODB_DB, maxPoolSize: 20 }).asPromise();
const items = db.collection('items');
const balances = db.collection('balances');

const app = express();
app.use(express.json());
app.post('/redeem', async (req, res) => {
  const { userId, itemId } = req.body;
  const item = await items.findOneAndUpdate({ _id: itemId, inventory: { $gt: 0 } }, { $inc: { inventory: -1 } }, { returnDocument: 'after' });
  if (!item) return res.status(422).json({ error: { code: 'OUT_OF_STOCK' } });
  const balance = await balances.findOneAndUpdate(
    { _id: userId, coins: { $gte: item.coinCost } },
    { $inc: { coins: -item.coinCost } },
    { returnDocument: 'after' },
  );
  if (!balance) {
    await items.updateOne({ _id: itemId }, { $inc: { inventory: 1 } });
    return res.status(422).json({ error: { code: 'INSUFFICIENT_BALANCE' } });
  }
  return res.status(201).json({ redemption: { userId, itemId, status: 'PENDING' }, balance: { coins: balance.coins } });
});

const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => db.close().then(() => process.exit(0))));
