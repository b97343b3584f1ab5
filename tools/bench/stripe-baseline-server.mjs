// The bare baseline of stripe.mjs: an Express handler that takes a Stripe
// webhook delivery as the integration must at the least, in one process:
// the raw body read, its Stripe-Signature checked with the stripe package
// (Stripe.webhooks.constructEvent: HMAC-SHA256 over the exact bytes, the
// timestamp within 300 s) and the event recorded with one insert under its
// id (a duplicate answered as received). Nothing else: no gateway, no
// integration lookup, no secret opened, no mapping, no conversion.
// Arguments: the database URL and name, and the webhook secret. Prints its
// port on stdout.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const express = require('express');
const Stripe = require('stripe');
const { MongoClient } = require('mongodb');

const [mongoUrl, dbName, secret] = process.argv.slice(2);
const client = await new MongoClient(mongoUrl, { maxPoolSize: 20 }).connect();
const events = client.db(dbName).collection('baseline_stripe_events');

// The benchmark stops it between scenarios: in-flight requests do not matter then.
process.on('SIGTERM', () => process.exit(0));

const app = express();
app.post('/baseline/stripe', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
  let event;
  try {
    event = Stripe.webhooks.constructEvent(req.body, req.header('stripe-signature') ?? '', secret);
  } catch {
    return res.status(400).json({ error: { code: 'STRIPE_SIGNATURE_INVALID' } });
  }
  try {
    await events.insertOne({ _id: event.id, type: event.type, receivedAt: new Date() });
    return res.json({ received: true, duplicate: false });
  } catch (err) {
    if (err?.code === 11000) return res.json({ received: true, duplicate: true });
    return res.status(500).json({ success: false });
  }
});
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
