import mongoose, { type Connection } from 'mongoose';
import { e2eStack, type ApiResponse, type TestApp } from '@ris/testing';

// Small steps the referral, reward, fraud and stats specs build their
// scenarios from; each goes through the public API and fails loudly when
// the API refuses a step the scenario relies on.

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are parsed JSON */

export const DISCOUNT = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };

/** The response when its status is one of `statuses`; otherwise the step fails with what the API said. */
export function expectStatus(res: ApiResponse, statuses: number[], step: string): ApiResponse {
  if (!statuses.includes(res.status)) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export async function createCampaign(app: TestApp, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await app.api.post('/campaigns', { name: 'Campaign', referrerReward: DISCOUNT, ...fields });
  return expectStatus(res, [201], 'create campaign').body.campaign;
}

export async function createReferral(app: TestApp, campaignId: string, referrerId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await app.api.post('/referrals', { campaignId, referrerId, ...fields });
  return expectStatus(res, [200, 201], `create referral of ${referrerId}`).body;
}

export async function convert(app: TestApp, referralCode: string, refereeId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await app.api.post('/conversions', { referralCode, refereeId, ...fields });
  return expectStatus(res, [201], `convert ${refereeId} through ${referralCode}`).body;
}

/**
 * The e2e stack's own database of one service (or the gateway's), for the
 * few steps no API can take: moving a record back in time (an attribution
 * window, a code's or an invitation's expiry) without waiting days.
 */
export async function serviceDatabase(service: 'referral' | 'reward' | 'fraud' | 'gateway'): Promise<Connection> {
  const stack = e2eStack();
  return mongoose.createConnection(stack.mongodbUrl, { dbName: `${stack.dbPrefix}${service}` }).asPromise();
}
