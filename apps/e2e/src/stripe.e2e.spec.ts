import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import Stripe from 'stripe';
import { createTestApp, eventually, secretTraces, type ApiResponse, type TestApp } from '@ris/testing';
import { createCampaign, createReferral, expectStatus, serviceDatabase } from './support/referral-scenario';

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
let sequence = 0;
/** A fresh Stripe-looking id: every test's objects are its own. */
const sid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(sequence += 1)}`;

/** A Stripe event of `type` about `object`, as Stripe sends it. */
function stripeEvent(type: string, object: Record<string, unknown>, id = sid('evt')) {
  return { id, object: 'event', api_version: '2026-10-28.endive', created: nowSeconds(), livemode: false, pending_webhooks: 1, request: { id: null }, type, data: { object } };
}

// Stripe in (issue 30) over HTTP through the real gateway and services:
// Stripe's webhook events, signed locally with the stripe package exactly as
// Stripe signs them (never the network), become conversions, purchases and
// reversals; a replay, a bad signature, a stale one, an event before what it
// needs and one for nothing of the app each end as documented.
describe('Stripe in', () => {
  let app: TestApp;
  let campaignId: string;
  let secret: string;
  let endpointUrl: string;
  let referralDb: Connection;

  beforeAll(async () => {
    [app, referralDb] = await Promise.all([createTestApp('stripe'), serviceDatabase('referral')]);
    // 10 % of each sale to the referrer; renewals earn for a year.
    campaignId = (await createCampaign(app, { name: 'Stripe', referrerReward: { percent: 10, fulfillmentType: 'DISCOUNT_CODE' }, recurringMonths: 12 })).id;
    secret = newSecret();
    const connected = expectStatus(await app.api.put('/integrations/stripe', { webhookSecret: secret, campaignId }), [201], 'connect Stripe');
    endpointUrl = connected.body.integration.endpointUrl;
  });

  afterAll(async () => {
    await referralDb.close();
  });

  /** POSTs `body` (a string, sent as these exact bytes) to the endpoint with `headers`. */
  async function deliver(body: string, headers: Record<string, string>, url = endpointUrl): Promise<ApiResponse> {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** Delivers an event as Stripe does: the body signed with the secret (the timestamp now, unless given). */
  function send(event: object, options: { secret?: string; timestamp?: number; url?: string } = {}): Promise<ApiResponse> {
    const body = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? secret, timestamp: options.timestamp });
    return deliver(body, { 'stripe-signature': signature }, options.url);
  }

  /** Sends an event and expects it received: its record as answered. */
  async function received(event: object): Promise<any> {
    return expectStatus(await send(event), [200], `deliver ${(event as { type: string }).type}`).body.event;
  }

  const events = async (query = '') => (await app.api.get(`/integrations/stripe/events${query}`)).body;
  const eventById = async (id: string) => ((await events('?limit=100')).events as any[]).find((e) => e.id === id);

  /** A referral code of the campaign, of a fresh referrer. */
  const code = async () => (await createReferral(app, campaignId, sid('referrer'))).referralCode as string;

  /** A checkout session of `fields` with the referral code in client_reference_id, paid. */
  const checkout = (fields: Record<string, unknown>) => ({
    id: sid('cs'),
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    metadata: {},
    customer_details: { email: null },
    amount_total: 10_000,
    currency: 'usd',
    invoice: null,
    subscription: null,
    payment_intent: null,
    ...fields,
  });

  const invoice = (fields: Record<string, unknown>) => ({
    id: sid('in'),
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    currency: 'usd',
    status: 'paid',
    status_transitions: { paid_at: nowSeconds() },
    ...fields,
  });

  const charge = (fields: Record<string, unknown>) => ({ id: sid('ch'), object: 'charge', currency: 'usd', refunded: false, ...fields });

  describe('the integration', () => {
    it('is connected with a secret never answered, read with its endpoint URL, and connected again with the same id', async () => {
      const read = await app.api.get('/integrations/stripe');
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        connected: true,
        integration: {
          id: expect.stringMatching(/^stripe_/),
          campaignId,
          endpointUrl: expect.stringMatching(/\/api\/v1\/integrations\/stripe\/events\/stripe_[A-Za-z0-9]+$/),
          connectedAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      expect(read.body.integration.endpointUrl).toBe(endpointUrl);
      expect(JSON.stringify(read.body)).not.toContain(secret.slice(6));

      // Another app sees nothing of it.
      const other = await createTestApp('stripe other');
      expect((await other.api.get('/integrations/stripe')).body).toEqual({ connected: false, integration: null });
      expect((await other.api.get('/integrations/stripe/events')).body).toEqual({ events: [], pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 } });

      // Refused: an unknown campaign (404), a secret that is not Stripe's (400).
      expect((await app.api.put('/integrations/stripe', { webhookSecret: newSecret(), campaignId: 'cmp_nope' })).status).toBe(404);
      const notStripe = await app.api.put('/integrations/stripe', { webhookSecret: 'sk_live_123', campaignId });
      expect([notStripe.status, notStripe.body.error.details.issues[0].field]).toEqual([400, 'body.webhookSecret']);
      expect((await app.api.get('/integrations/stripe')).body.integration).toEqual(read.body.integration);
    });

    it('takes a new secret in place of the old one: the endpoint stays, the old signatures stop verifying', async () => {
      const app2 = await createTestApp('stripe rotation');
      const campaign2 = (await createCampaign(app2, { name: 'Rotation' })).id;
      const first = newSecret();
      const connected = expectStatus(await app2.api.put('/integrations/stripe', { webhookSecret: first, campaignId: campaign2 }), [201], 'connect');
      const second = newSecret();
      const again = expectStatus(await app2.api.put('/integrations/stripe', { webhookSecret: second, campaignId: campaign2 }), [200], 'connect again');
      expect(again.body.integration).toMatchObject({ id: connected.body.integration.id, endpointUrl: connected.body.integration.endpointUrl, connectedAt: connected.body.integration.connectedAt });

      const url = connected.body.integration.endpointUrl;
      const ping = stripeEvent('customer.created', { id: sid('cus'), object: 'customer' });
      expect((await send(ping, { secret: first, url })).body.error).toMatchObject({ code: 'STRIPE_SIGNATURE_INVALID', details: { why: 'NO_MATCHING_SIGNATURE' } });
      expect((await send(ping, { secret: second, url })).body.event).toMatchObject({ id: ping.id, status: 'IGNORED', reasonCode: 'EVENT_TYPE_NOT_MAPPED' });

      // Disconnected: the endpoint is gone (404, Stripe retries and then disables it), the events stay listed.
      expect((await app2.api.delete('/integrations/stripe')).status).toBe(204);
      expect((await app2.api.get('/integrations/stripe')).body).toEqual({ connected: false, integration: null });
      expect((await send(ping, { secret: second, url })).status).toBe(404);
      expect((await app2.api.delete('/integrations/stripe')).status).toBe(404);
      expect((await app2.api.get('/integrations/stripe/events')).body.events.map((e: any) => e.id)).toEqual([ping.id]);
    });

    it('keeps the secret sealed: no trace of it in the database or in any log', async () => {
      const docs = await referralDb.collection('stripe_integrations').find({}).toArray();
      expect(docs.length).toBeGreaterThan(0);
      expect(secretTraces(docs, secret)).toEqual([]);
      const logDir = process.env.E2E_LOG_DIR!;
      for (const file of readdirSync(logDir).filter((name) => name.endsWith('.log'))) {
        expect([file, readFileSync(join(logDir, file), 'utf8').includes(secret.slice(6))]).toEqual([file, false]);
      }
    });
  });

  it('records a signed checkout as a conversion, and the same event delivered again as nothing more', async () => {
    const referralCode = await code();
    const event = stripeEvent('checkout.session.completed', checkout({ client_reference_id: referralCode, customer: sid('cus'), amount_total: 12_345, payment_intent: sid('pi') }));
    const first = await send(event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      event: {
        id: event.id,
        type: 'checkout.session.completed',
        status: 'MATCHED',
        conversionId: expect.stringMatching(/^conv_/),
        purchaseId: null,
        reversalId: null,
        reasonCode: 'CONVERSION_RECORDED',
        reason: expect.stringContaining(referralCode),
        livemode: false,
        createdAt: expect.any(String),
        receivedAt: expect.any(String),
      },
      duplicate: false,
    });
    const { conversionId } = first.body.event;
    const customer = (event.data.object as { customer: string }).customer;
    const records = (await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions;
    expect(records).toEqual([expect.objectContaining({ id: conversionId, refereeId: customer, amount: 123.45, currency: 'USD', status: 'CONVERTED', rewardAmount: 12.35 })]);

    // Stripe retries: the same event (even signed again) changes nothing and is answered as it was.
    const again = await send(event);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ event: first.body.event, duplicate: true });
    expect((await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions).toEqual(records);
    expect((await app.api.get(`/users/${records[0].referrerId}/rewards`)).body.rewards).toHaveLength(1);

    // metadata.referralCode and metadata.refereeId win over client_reference_id and the customer.
    const other = await code();
    const named = await received(stripeEvent('checkout.session.completed', checkout({ client_reference_id: 'ignored', metadata: { referralCode: other, refereeId: 'user-named' }, customer: sid('cus') })));
    expect((await app.api.get(`/conversions?referralCode=${other}`)).body.conversions).toEqual([expect.objectContaining({ id: named.conversionId, refereeId: 'user-named', amount: 100 })]);
  });

  it('records the renewals of a subscription as purchases, its first invoice counted once with the checkout', async () => {
    const referralCode = await code();
    const [customer, subscription, firstInvoice] = [sid('cus'), sid('sub'), sid('in')];
    const parent = { type: 'subscription_details', subscription_details: { subscription } };
    const conversion = await received(
      stripeEvent('checkout.session.completed', checkout({ mode: 'subscription', client_reference_id: referralCode, customer, subscription, invoice: firstInvoice, amount_total: 2000 })),
    );
    expect(conversion.status).toBe('MATCHED');

    // The checkout's own invoice: its sale, already the conversion's.
    const first = await received(stripeEvent('invoice.paid', invoice({ id: firstInvoice, customer, parent, billing_reason: 'subscription_create', amount_paid: 2000, payment_intent: sid('pi') })));
    expect(first).toMatchObject({ status: 'MATCHED', reasonCode: 'FIRST_INVOICE', conversionId: conversion.conversionId, purchaseId: null });

    // Renewals paid a second and two later (purchases are listed by when they were paid).
    const paidLater = (seconds: number) => ({ status_transitions: { paid_at: nowSeconds() + seconds } });
    const renewal = await received(stripeEvent('invoice.paid', invoice({ customer, parent, amount_paid: 2000, ...paidLater(1) })));
    expect(renewal).toMatchObject({ status: 'MATCHED', reasonCode: 'PURCHASE_RECORDED', conversionId: conversion.conversionId, purchaseId: expect.stringMatching(/^pur_/) });
    const next = stripeEvent('invoice.paid', invoice({ customer, parent, amount_paid: 2500, ...paidLater(2) }));
    expect((await received(next)).purchaseId).toEqual(expect.stringMatching(/^pur_/));

    const purchases = (await app.api.get(`/conversions/${conversion.conversionId}/purchases`)).body.purchases;
    expect(purchases.map((p: any) => [p.amount, p.externalId])).toEqual([
      [25, (next.data.object as { id: string }).id],
      [20, expect.stringMatching(/^in_/)],
    ]);
    // A trial's renewal pays nothing, and an invoice of nobody who converted waits for a checkout that may come.
    expect(await received(stripeEvent('invoice.paid', invoice({ customer, parent, amount_paid: 0 })))).toMatchObject({ status: 'IGNORED', reasonCode: 'NOTHING_PAID' });
    expect(await received(stripeEvent('invoice.paid', invoice({ customer: sid('cus'), parent, amount_paid: 100 })))).toMatchObject({ status: 'WAITING', reasonCode: 'WAITING_FOR_CUSTOMER' });
  });

  it('records a refund (by what it newly refunds) and a dispute as reversals of the sale their charge paid', async () => {
    const referralCode = await code();
    const [paymentIntent, customer] = [sid('pi'), sid('cus')];
    const { conversionId } = await received(stripeEvent('checkout.session.completed', checkout({ client_reference_id: referralCode, customer, payment_intent: paymentIntent })));
    const refunded = charge({ amount: 10_000, amount_refunded: 3000, payment_intent: paymentIntent, refunded: false });

    const refund = await received(stripeEvent('charge.refunded', refunded));
    expect(refund).toMatchObject({ status: 'MATCHED', reasonCode: 'REFUND_REVERSED', conversionId, purchaseId: null, reversalId: expect.stringMatching(/^rvs_/) });
    // Another event with the same refunded total (or an older one, late) adds nothing.
    expect(await received(stripeEvent('charge.refunded', refunded))).toMatchObject({ status: 'IGNORED', reasonCode: 'NOTHING_NEWLY_REFUNDED' });
    const more = await received(stripeEvent('charge.refunded', { ...refunded, amount_refunded: 4500 }));
    expect(more).toMatchObject({ status: 'MATCHED', reversalId: expect.stringMatching(/^rvs_/) });

    const reversals = (await app.api.get(`/conversions/${conversionId}/reversals`)).body.reversals;
    expect(reversals.map((r: any) => [r.id, r.reason, r.amount, r.full])).toEqual([
      [more.reversalId, 'REFUND', 15, false],
      [refund.reversalId, 'REFUND', 30, false],
    ]);

    // A renewal's charge disputed: a chargeback of that purchase, all of it.
    const subscription = sid('sub');
    const parent = { type: 'subscription_details', subscription_details: { subscription } };
    const subscriber = sid('cus');
    const subscribed = await received(
      stripeEvent('checkout.session.completed', checkout({ mode: 'subscription', client_reference_id: await code(), customer: subscriber, subscription, invoice: sid('in'), amount_total: 5000 })),
    );
    // The renewal's payment arrives apart (newer API versions): invoice_payment.paid links it to the purchase.
    const renewal = invoice({ customer: subscriber, parent, amount_paid: 5000 });
    const purchase = await received(stripeEvent('invoice.paid', renewal));
    const renewalCharge = sid('ch');
    const paid = await received(stripeEvent('invoice_payment.paid', { id: sid('inpay'), object: 'invoice_payment', invoice: renewal.id, payment: { type: 'payment_intent', payment_intent: sid('pi'), charge: renewalCharge } }));
    expect(paid).toMatchObject({ status: 'MATCHED', reasonCode: 'PAYMENT_LINKED', purchaseId: purchase.purchaseId });
    const dispute = await received(stripeEvent('charge.dispute.created', { id: sid('dp'), object: 'dispute', charge: renewalCharge, payment_intent: null, amount: 5000, currency: 'usd', reason: 'fraudulent' }));
    expect(dispute).toMatchObject({ status: 'MATCHED', reasonCode: 'DISPUTE_REVERSED', conversionId: subscribed.conversionId, purchaseId: purchase.purchaseId });
    const chargeback = (await app.api.get(`/conversions/${subscribed.conversionId}/reversals`)).body.reversals;
    expect(chargeback).toEqual([expect.objectContaining({ id: dispute.reversalId, purchaseId: purchase.purchaseId, reason: 'CHARGEBACK', amount: 50, full: true })]);
    expect((await app.api.get(`/conversions/${subscribed.conversionId}/purchases`)).body.purchases[0]).toMatchObject({ status: 'REVERSED', reversedAmount: 50 });
  });

  it('keeps events that come before what they need WAITING and applies them when it arrives', async () => {
    const referralCode = await code();
    const [customer, subscription, firstInvoice, paymentIntent] = [sid('cus'), sid('sub'), sid('in'), sid('pi')];

    // The first invoice and a full refund of its payment, before the checkout.
    const early = stripeEvent('invoice.paid', invoice({
      id: firstInvoice,
      customer,
      parent: { type: 'subscription_details', subscription_details: { subscription } },
      billing_reason: 'subscription_create',
      amount_paid: 4000,
      payment_intent: paymentIntent,
    }));
    expect(await received(early)).toMatchObject({ status: 'WAITING', reasonCode: 'WAITING_FOR_CUSTOMER', conversionId: null });
    const refund = stripeEvent('charge.refunded', charge({ amount: 4000, amount_refunded: 4000, payment_intent: paymentIntent, refunded: true }));
    expect(await received(refund)).toMatchObject({ status: 'WAITING', reasonCode: 'WAITING_FOR_PAYMENT' });
    expect((await events('?status=WAITING')).events.map((e: any) => e.id)).toEqual(expect.arrayContaining([early.id, refund.id]));

    const conversion = await received(
      stripeEvent('checkout.session.completed', checkout({ mode: 'subscription', client_reference_id: referralCode, customer, subscription, invoice: firstInvoice, amount_total: 4000 })),
    );
    // Applied with the checkout: the invoice as its first (no purchase), then the refund of the payment it linked.
    const [invoiceEvent, refundEvent] = await eventually(
      () => Promise.all([eventById(early.id), eventById(refund.id)]),
      ([i, r]) => i?.status === 'MATCHED' && r?.status === 'MATCHED',
    );
    expect(invoiceEvent).toMatchObject({ reasonCode: 'FIRST_INVOICE', conversionId: conversion.conversionId, purchaseId: null });
    expect(refundEvent).toMatchObject({ reasonCode: 'REFUND_REVERSED', conversionId: conversion.conversionId, reversalId: expect.stringMatching(/^rvs_/) });
    expect((await app.api.get(`/conversions/${conversion.conversionId}/purchases`)).body.purchases).toEqual([]);
    const reversals = (await app.api.get(`/conversions/${conversion.conversionId}/reversals`)).body.reversals;
    expect(reversals.map((r: any) => [r.reason, r.amount, r.full])).toEqual([['REFUND', 40, true]]);
    const [record] = (await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions;
    expect(record).toMatchObject({ id: conversion.conversionId, status: 'REVERSED' });

    // Delivered again, they change nothing.
    expect((await send(refund)).body).toEqual({ event: refundEvent, duplicate: true });
    expect((await app.api.get(`/conversions/${conversion.conversionId}/reversals`)).body.reversals).toHaveLength(1);
  });

  it('refuses a bad or stale signature with 400 and stores nothing', async () => {
    const referralCode = await code();
    const event = stripeEvent('checkout.session.completed', checkout({ client_reference_id: referralCode, customer: sid('cus') }));

    const wrong = await send(event, { secret: newSecret() });
    expect([wrong.status, wrong.body.error.code, wrong.body.error.details]).toEqual([400, 'STRIPE_SIGNATURE_INVALID', { why: 'NO_MATCHING_SIGNATURE' }]);
    const stale = await send(event, { timestamp: nowSeconds() - 301 });
    expect([stale.status, stale.body.error.code, stale.body.error.details]).toEqual([400, 'STRIPE_SIGNATURE_INVALID', { why: 'STALE_TIMESTAMP' }]);
    // Signed, then changed by a byte on the way (here: re-serialised with spaces).
    const body = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    expect((await deliver(JSON.stringify(event, null, 1), { 'stripe-signature': signature })).body.error.code).toBe('STRIPE_SIGNATURE_INVALID');
    expect((await deliver(body, { 'stripe-signature': 'v1=abc' })).body.error).toMatchObject({ code: 'STRIPE_SIGNATURE_INVALID', details: { why: 'MALFORMED_HEADER' } });
    const unsigned = await deliver(body, {});
    expect([unsigned.status, unsigned.body.error.code, unsigned.body.error.details.issues]).toEqual([400, 'VALIDATION_ERROR', [{ field: 'header.Stripe-Signature', message: 'is required' }]]);
    // No API key is asked for, and none helps; another integration's id is 404.
    expect((await deliver(body, { 'stripe-signature': signature, authorization: `Bearer ${app.apiKey}` }, endpointUrl.replace(/stripe_[A-Za-z0-9]+$/, 'stripe_unknown'))).status).toBe(404);

    expect(await eventById(event.id)).toBeUndefined();
    expect((await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions).toEqual([]);
    expect(await referralDb.collection('stripe_events').countDocuments({ stripeEventId: event.id })).toBe(0);

    // The same event signed right is taken.
    expect(await received(event)).toMatchObject({ status: 'MATCHED' });
  });

  it('records an event for an unknown code as UNMATCHED and other types as IGNORED, listed newest first by status', async () => {
    const unknown = stripeEvent('checkout.session.completed', checkout({ client_reference_id: 'NOSUCHCODE', customer: sid('cus') }));
    expect(await received(unknown)).toMatchObject({ status: 'UNMATCHED', reasonCode: 'UNKNOWN_REFERRAL_CODE', conversionId: null });
    const otherCampaign = (await createCampaign(app, { name: 'Not connected' })).id;
    const elsewhere = (await createReferral(app, otherCampaign, sid('referrer'))).referralCode;
    const wrongCampaign = stripeEvent('checkout.session.completed', checkout({ client_reference_id: elsewhere, customer: sid('cus') }));
    expect(await received(wrongCampaign)).toMatchObject({ status: 'UNMATCHED', reasonCode: 'OTHER_CAMPAIGN' });
    const noCode = stripeEvent('checkout.session.completed', checkout({ customer: sid('cus') }));
    expect(await received(noCode)).toMatchObject({ status: 'IGNORED', reasonCode: 'NO_REFERRAL_CODE' });
    const other = stripeEvent('payment_intent.created', { id: sid('pi'), object: 'payment_intent' });
    expect(await received(other)).toMatchObject({ status: 'IGNORED', reasonCode: 'EVENT_TYPE_NOT_MAPPED' });
    // A second checkout of a referee who converted: refused by the program's rule, with its code.
    const referralCode = await code();
    const buyer = sid('cus');
    await received(stripeEvent('checkout.session.completed', checkout({ client_reference_id: referralCode, customer: buyer })));
    expect(await received(stripeEvent('checkout.session.completed', checkout({ client_reference_id: referralCode, customer: buyer })))).toMatchObject({
      status: 'REFUSED',
      reasonCode: 'ALREADY_CONVERTED',
    });

    const unmatched = await events('?status=UNMATCHED');
    expect(unmatched.events.map((e: any) => e.id).slice(0, 2)).toEqual([wrongCampaign.id, unknown.id]);
    expect(unmatched.events.every((e: any) => e.status === 'UNMATCHED')).toBe(true);
    const page = await events('?status=IGNORED&limit=1');
    expect(page.events.map((e: any) => e.id)).toEqual([other.id]);
    expect(page.pagination).toMatchObject({ page: 1, limit: 1 });
    expect(page.pagination.totalItems).toBeGreaterThanOrEqual(2);
    const all = (await events('?limit=100')).events;
    expect(all.map((e: any) => e.receivedAt)).toEqual([...all.map((e: any) => e.receivedAt)].sort().reverse());
    expect((await app.api.get('/integrations/stripe/events?status=NOPE')).status).toBe(400);
  });
});
