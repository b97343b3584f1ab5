// The benchmark's baselines: bare Express handlers on the same database
// server the stack uses, and nothing else (no auth, no validation, no RPC,
// no events): POST /baseline parses a small JSON body and inserts one
// document; GET /baseline/read reads one document by _id (GET /stats's
// store work).
// Started by referral.mjs as its own process; prints its port on stdout.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const { MongoClient } = require('mongodb');

const [mongoUrl, dbName] = process.argv.slice(2);
const client = await new MongoClient(mongoUrl, { maxPoolSize: 20 }).connect();
const collection = client.db(dbName).collection('baseline_clicks');
const counters = client.db(dbName).collection('baseline_counters');
await counters.updateOne({ _id: 'campaign' }, { $set: { totalClicks: 0 } }, { upsert: true });

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
