import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import type { AuditEntry } from '../../api/types';
import { auditChanges } from './audit-diff';
import { auditSentence } from './audit-sentence';

describe('the audit log', () => {
  it('finds what a change added, removed and changed, by path', () => {
    expect(
      auditChanges(
        { name: 'Launch', status: 'ACTIVE', levels: [{ level: 2, amount: 5 }], refereeReward: null },
        { name: 'Launch', status: 'PAUSED', levels: [{ level: 2, amount: 6 }, { level: 3, amount: 1 }], refereeReward: { amount: 5 } },
      ),
    ).toEqual([
      { path: 'levels.0.amount', kind: 'changed', before: 5, after: 6 },
      { path: 'levels.1', kind: 'added', after: { level: 3, amount: 1 } },
      { path: 'refereeReward', kind: 'added', after: { amount: 5 } },
      { path: 'status', kind: 'changed', before: 'ACTIVE', after: 'PAUSED' },
    ]);
    expect(auditChanges(null, { key: { id: 'key_1' } })).toEqual([{ path: '(whole)', kind: 'added', after: { key: { id: 'key_1' } } }]);
  });

  it('filters by operator from a row and shows one change before and after', async () => {
    const entry: AuditEntry = {
      id: 'aud_1',
      at: '2026-11-24T10:00:00.000Z',
      operator: { id: 'opr_2', email: 'mo@example.com' },
      action: 'PATCH /api/v1/campaigns/{campaignId}',
      target: { type: 'campaign', id: 'cmp_1' },
      summary: 'Update a campaign',
      before: { campaign: { status: 'ACTIVE' } },
      after: { campaign: { status: 'PAUSED' } },
      outcome: 'SUCCEEDED',
    };
    // A change whose gateway failed without saying (UNKNOWN), made to no single resource.
    const unknown: AuditEntry = {
      ...entry,
      id: 'aud_2',
      operator: { id: 'opr_3', email: 'al@example.com' },
      action: 'POST /console/v1/apps',
      target: null,
      summary: 'Create an app and its first API key',
      before: null,
      after: null,
      outcome: 'UNKNOWN',
    };
    const api = new FakeApi().on('GET', '/console/v1/apps/app_1/audit', { body: { entries: [entry, unknown], pagination: page(2) } });
    const { location } = renderApp('/apps/app_1/audit', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    expect(await screen.findByText('outcome unknown')).toBeInTheDocument();
    expect(screen.getAllByText(/pending|outcome unknown/)).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: 'Only changes by mo@example.com' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/audit?operatorId=opr_2'));
    await waitFor(() => expect(api.sent('GET', '/console/v1/apps/app_1/audit').at(-1)!.query.get('operatorId')).toBe('opr_2'));
    await user.click(screen.getByRole('button', { name: 'Before and after of Paused campaign' }));
    const drawer = await screen.findByRole('dialog', { name: 'Change' });
    expect(within(drawer).getByText('campaign.status')).toBeInTheDocument();
    expect(within(drawer).getByText('"ACTIVE"')).toBeInTheDocument();
    expect(within(drawer).getByText('"PAUSED"')).toBeInTheDocument();
  });

  it('says each change in a sentence built from its route, target and before and after, the raw route kept under it', async () => {
    const at = '2026-11-24T10:00:00.000Z';
    const operator = { id: 'opr_1', email: 'ana@example.com' };
    const of = (action: string, parts: Partial<AuditEntry> = {}): AuditEntry => ({ id: action, at, operator, action, target: null, summary: 'A summary', before: null, after: null, outcome: 'SUCCEEDED', ...parts });
    const invited = of('POST /console/v1/apps/{appId}/members', { after: { member: { operatorId: 'opr_2', email: 'mo@example.com', role: 'VIEWER' }, initialPassword: '[redacted]' } });
    const rejected = of('POST /api/v1/fraud/flags/{flagId}/resolve', { target: { type: 'flag', id: 'flg_1' }, before: { flag: { status: 'OPEN' } }, after: { flag: { status: 'REJECTED' } } });
    expect(auditSentence(invited)).toBe('Invited a member: mo@example.com as VIEWER');
    expect(auditSentence(rejected)).toBe('Resolved a fraud flag: REJECTED');
    expect(auditSentence(of('POST /console/v1/apps/{appId}/keys', { after: { key: { name: 'CI', prefix: 'rk_live_abcd' } } }))).toBe('Issued an API key: “CI”');
    expect(auditSentence(of('POST /console/v1/apps/{appId}/keys', { after: { key: { name: null, prefix: 'rk_live_abcd' } } }))).toBe('Issued an API key: rk_live_abcd…');
    expect(auditSentence(of('PATCH /api/v1/webhooks/{webhookId}', { before: { webhook: { enabled: true, url: 'https://x.example/h' } }, after: { webhook: { enabled: false, url: 'https://x.example/h' } } }))).toBe(
      'Disabled webhook endpoint: https://x.example/h',
    );
    expect(auditSentence(of('DELETE /api/v1/webhooks/{webhookId}', { target: { type: 'webhook', id: 'wh_1' }, before: { webhook: { url: 'https://x.example/h' } } }))).toBe('Deleted webhook endpoint: https://x.example/h');
    expect(auditSentence(of('PATCH /api/v1/campaigns/{campaignId}', { before: { campaign: { name: 'Launch', status: 'ACTIVE' } }, after: { campaign: { name: 'Launch', status: 'ACTIVE' } } }))).toBe('Updated campaign: “Launch”');
    expect(auditSentence(of('PATCH /api/v1/incentives/redemptions/{redemptionId}', { after: { redemption: { status: 'CANCELLED', itemName: 'Tote bag' } } }))).toBe('Cancelled a redemption: “Tote bag”');
    expect(
      auditSentence(of('POST /api/v1/incentives/balances/{userId}/adjustments', { after: { transaction: { coins: -30, xp: 0, tokens: 2 }, balance: { userId: 'ana' } } })),
    ).toBe('Adjusted a balance: ana (−30 coins · +2 tokens)');
    const reversal = (fields: Record<string, unknown>) => ({ reversal: { amount: 20, currency: 'EUR', reason: 'REFUND', full: false, purchaseId: null, ...fields } });
    expect(auditSentence(of('POST /api/v1/conversions/{conversionId}/reversals', { after: reversal({}) }))).toBe('Reversed a conversion: €20.00 (refund)');
    expect(auditSentence(of('POST /api/v1/conversions/{conversionId}/reversals', { after: reversal({ full: true, purchaseId: 'pur_1', reason: 'CHARGEBACK' }) }))).toBe(
      'Reversed a purchase in full: €20.00 (chargeback)',
    );
    const paid = { id: 'po_1', userId: 'ana', amount: 35.05, currency: 'USD', externalReference: 'wire-001', failureReason: 'IBAN closed' };
    expect(auditSentence(of('POST /api/v1/payouts', { after: { payouts: [paid, { ...paid, amount: 12 }, { ...paid, amount: 5, currency: 'EUR' }] } }))).toBe('Made 3 payouts: $47.05 + €5.00');
    expect(auditSentence(of('POST /api/v1/payouts', { after: { payouts: [] } }))).toBe('Made no payouts: nothing was due');
    expect(auditSentence(of('POST /api/v1/payouts/{payoutId}/paid', { target: { type: 'payout', id: 'po_1' }, after: { payout: paid } }))).toBe('Marked a payout paid: $35.05 to ana (wire-001)');
    expect(auditSentence(of('POST /api/v1/payouts/{payoutId}/failed', { target: { type: 'payout', id: 'po_1' }, after: { payout: { ...paid, externalReference: null } } }))).toBe(
      'Marked a payout failed: $35.05 to ana (IBAN closed)',
    );
    expect(auditSentence(of('PUT /api/v1/integrations/stripe', { after: { connected: true, integration: { campaignId: 'cmp_1' } } }))).toBe('Connected Stripe: campaign cmp_1');
    expect(auditSentence(of('DELETE /api/v1/integrations/stripe'))).toBe('Disconnected Stripe');
    // An action the dashboard has no sentence for yet reads as its route's summary.
    expect(auditSentence(of('POST /api/v1/something/new', { summary: 'Do something new' }))).toBe('Do something new');

    const api = new FakeApi().on('GET', '/console/v1/apps/app_1/audit', { body: { entries: [invited, rejected], pagination: page(2) } });
    renderApp('/apps/app_1/audit', { session: sessionFor('OWNER'), api });
    const row = (await screen.findByText(/^Resolved a fraud flag: REJECTED/)).closest('tr')!;
    expect(within(row).getByText('POST /api/v1/fraud/flags/{flagId}/resolve')).toBeInTheDocument();
    expect(screen.getByText(/^Invited a member: mo@example.com as VIEWER/)).toBeInTheDocument();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Before and after of Resolved a fraud flag: REJECTED' }));
    const drawer = await screen.findByRole('dialog', { name: 'Change' });
    expect(within(drawer).getByText(/^Resolved a fraud flag: REJECTED/)).toBeInTheDocument();
    expect(within(drawer).getByText('flag.status')).toBeInTheDocument();
  });
});
