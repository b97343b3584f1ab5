// The benchmark's baselines: bare Express handlers on the same database
// server the stack uses, and nothing else (no auth, no validation, no RPC,
// no events): POST /baseline parses a small JSON body and inserts one
// document; GET /baseline/read reads one document by _id (GET /stats's
// store work); POST /baseline/conversion does a conversion's essential
// store work (below).
// Started by referral.mjs as its own process; prints its port on stdout.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const { MongoClient, ObjectId } = require('mongodb');

const [mongoUrl, dbName, referralDbName] = process.argv.slice(2);
const client = await new MongoClient(mongoUrl, { maxPoolSize: 20 }).connect();
const collection = client.db(dbName).collection('baseline_clicks');
const counters = client.db(dbName).collection('baseline_counters');
await counters.updateOne({ _id: 'campaign' }, { $set: { totalClicks: 0 } }, { upsert: true });

// The essential work of a conversion, with the plain driver: find the
// referral (its code key by _id, among the seeded campaign's, in the
// referral service's own database), insert the conversion (unique per
// campaign and referee, as the service's) and its reward, bump the
// campaign's and the referral's counters. Nothing else: no fraud check,
// no events, no idempotency, no RPC.
const codeKeys = referralDbName ? client.db(referralDbName).collection('referral_code_keys') : null;
const conversions = client.db(dbName).collection('baseline_conversions');
const rewards = client.db(dbName).collection('baseline_rewards');
const referralCounters = client.db(dbName).collection('baseline_referral_counters');
await conversions.createIndex({ campaignId: 1, refereeId: 1 }, { unique: true });

const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/baseline', async (req, res) => {
  const doc = { referralCode: req.body?.referralCode ?? null, clickedAt: new Date() };
  try {
    await collection.insertOne(doc);
    res.json({ success: true, id: String(doc._id) });
  } catch {
    res.status(500).json({ success: false });
  }
});
app.post('/baseline/conversion', async (req, res) => {
  try {
    const appId = String(req.body?.appId ?? '');
    const key = await codeKeys?.findOne({ _id: `${appId}:${req.body?.referralCode ?? ''}` });
    if (!key) {
      res.status(404).json({ success: false });
      return;
    }
    const now = new Date();
    const conversionId = `conv_${new ObjectId().toHexString()}`;
    await conversions.insertOne({
      _id: conversionId,
      appId,
      campaignId: key.campaignId,
      referralId: key.referralId,
      referrerId: key.referrerId,
      refereeId: String(req.body?.refereeId ?? ''),
      amount: req.body?.amount ?? null,
      status: 'CONVERTED',
      convertedAt: now,
    });
    await Promise.all([
      rewards.insertOne({ _id: `rwd_${new ObjectId().toHexString()}`, appId, conversionId, userId: key.referrerId, amount: 10, status: 'APPROVED', createdAt: now }),
      counters.updateOne({ _id: 'campaign' }, { $inc: { totalConversions: 1, totalRewardValue: 10 } }),
      referralCounters.updateOne({ _id: key.referralId }, { $inc: { conversions: 1, rewardAmount: 10 } }, { upsert: true }),
    ]);
    res.status(201).json({ success: true, conversionId });
  } catch {
    res.status(500).json({ success: false });
  }
});
app.get('/baseline/read', async (_req, res) => {
  try {
    res.json(await counters.findOne({ _id: 'campaign' }));
  } catch {
    res.status(500).json({ success: false });
  }
});
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
// The benchmark stops it between scenarios: in-flight requests do not matter then.
process.on('SIGTERM', () => process.exit(0));
