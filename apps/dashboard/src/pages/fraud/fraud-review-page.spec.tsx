import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FlagDetail } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { flag, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { reasonInWords } from './reasons';
import { riskiestFirst, toggled } from './review-order';

const openFlags = [
  flag({ id: 'flg_low', riskScore: 35, reasons: ['SAME_IP'], referrerId: 'low' }),
  flag({ id: 'flg_high', riskScore: 95, reasons: ['SELF_REFERRAL', 'SAME_DEVICE'], referrerId: 'high' }),
  flag({ id: 'flg_mid', riskScore: 60, reasons: ['SAME_DEVICE'], referrerId: 'mid' }),
];

function reviewApi() {
  return new FakeApi()
    .on('GET', '/api/v1/campaigns', { body: { campaigns: [], pagination: page(0) } })
    .on('GET', '/api/v1/fraud/flags', { body: { flags: openFlags, pagination: page(3) } })
    .on('POST', /^\/api\/v1\/fraud\/flags\/[^/]+\/resolve$/, (r) => ({
      body: { flag: flag({ id: r.path.split('/')[5], status: (r.body as { decision: string }).decision === 'APPROVE' ? 'APPROVED' : 'REJECTED' }) },
    }));
}

describe('fraud review', () => {
  it('orders riskiest first (oldest first among equals) and selects one or the whole page', () => {
    const tie = flag({ id: 'flg_old', riskScore: 60, createdAt: '2026-11-01T00:00:00.000Z' });
    expect(riskiestFirst([...openFlags, tie]).map((f) => f.id)).toEqual(['flg_high', 'flg_old', 'flg_mid', 'flg_low']);
    const ids = ['a', 'b'];
    expect([...toggled(new Set(), 'a', ids)]).toEqual(['a']);
    expect([...toggled(new Set(['a']), 'a', ids)]).toEqual([]);
    expect([...toggled(new Set(['a']), 'all', ids)]).toEqual(['a', 'b']);
    expect([...toggled(new Set(['a', 'b']), 'all', ids)]).toEqual([]);
  });

  it('says each reason in plain words, and an unknown one as itself', () => {
    expect(reasonInWords('SAME_DEVICE')).toBe("The referee used the referrer's device");
    expect(reasonInWords('NEW_RULE_X')).toBe('new rule x');
  });

  it('asks for the open flags sorted by risk and shows them riskiest first, with reasons in words', async () => {
    const api = reviewApi();
    renderApp('/apps/app_1/fraud', { session: sessionFor('MANAGER'), api });
    const rows = await screen.findAllByTestId('flag-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(['95', '60', '35']);
    expect(rows[0]).toHaveTextContent('The referee is the referrer (same user id or same email)');
    const query = api.sent('GET', '/api/v1/fraud/flags')[0]!.query;
    expect([query.get('status'), query.get('sort')]).toEqual(['OPEN', 'riskScore']);
  });

  it("puts each row's Review first (after its checkbox), so a phone's scrolled table starts with it", async () => {
    renderApp('/apps/app_1/fraud', { session: sessionFor('MANAGER'), api: reviewApi() });
    const rows = await screen.findAllByTestId('flag-row');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Evidence', 'Risk', 'Why', 'Referrer → referee', 'Kind', 'Flagged']);
    for (const row of rows) expect(within(within(row).getAllByRole('cell')[1]!).getByRole('button', { name: /^Evidence of the flag of / })).toHaveTextContent('Review');
  });

  it('rejects the selected flags with one resolve each, carrying the note', async () => {
    const api = reviewApi();
    renderApp('/apps/app_1/fraud', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: /select flag of high/i }));
    await user.click(screen.getByRole('checkbox', { name: /select flag of low/i }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reject selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 flags' });
    await user.type(within(dialog).getByLabelText(/note/i), 'Same device as the referrer');
    await user.click(within(dialog).getByRole('button', { name: 'Reject 2 flags' }));

    await waitFor(() => expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    const resolves = api.requests.filter((r) => r.method === 'POST');
    expect(resolves.map((r) => r.path).sort()).toEqual(['/api/v1/fraud/flags/flg_high/resolve', '/api/v1/fraud/flags/flg_low/resolve']);
    for (const r of resolves) {
      expect(r.body).toEqual({ decision: 'REJECT', note: 'Same device as the referrer' });
      expect(r.headers.get('X-CSRF-Token')).toBe('csrf-123');
    }
    expect(await screen.findByText('2 flags rejected.')).toBeInTheDocument();
  });

  it('selects the whole page at once for approval', async () => {
    const api = reviewApi();
    renderApp('/apps/app_1/fraud', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: /select every flag/i }));
    await user.click(screen.getByRole('button', { name: 'Approve selected' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve 3 flags' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(3));
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ decision: 'APPROVE' }, { decision: 'APPROVE' }, { decision: 'APPROVE' }]);
  });

  it('shows decided flags with who decided and when, newest first (no risk sort)', async () => {
    const api = reviewApi().on('GET', '/api/v1/fraud/flags', {
      body: {
        flags: [
          flag({ id: 'flg_r', status: 'REJECTED', resolvedAt: '2026-11-23T09:15:00.000Z', resolvedBy: { operatorId: 'opr_2', email: 'fraud@example.com' }, note: 'Bot' }),
          flag({ id: 'flg_k', status: 'REJECTED', resolvedAt: '2026-11-22T09:15:00.000Z', resolvedBy: null }),
        ],
        pagination: page(2),
      },
    });
    renderApp('/apps/app_1/fraud?status=REJECTED', { session: sessionFor('MANAGER'), api });
    const rows = await screen.findAllByTestId('flag-row');
    expect(rows[0]).toHaveTextContent('by fraud@example.com · “Bot”');
    expect(rows[1]).toHaveTextContent('by an API key');
    expect(screen.queryByRole('checkbox')).toBeNull();
    const query = api.sent('GET', '/api/v1/fraud/flags')[0]!.query;
    expect([query.get('status'), query.get('sort')]).toEqual(['REJECTED', null]);
  });

  it('opens the evidence of a flag from the URL', async () => {
    const api = reviewApi().on('GET', '/api/v1/fraud/flags/flg_high', {
      body: {
        flag: openFlags[1]!,
        evidence: {
          signals: { ip: '203.0.113.7', userAgent: 'Mozilla/5.0', deviceId: 'dev-42', email: 'bob@example.com', at: '2026-11-20T10:00:00.000Z' },
          click: { clickId: 'clk_1', clickedAt: '2026-11-20T09:59:57.500Z', secondsToConversion: 2.5 },
          linked: [
            { kind: 'CONVERSION', id: 'conv_9', campaignId: 'cmp_1', referralCode: 'ANA123', referrerId: 'ana', refereeId: 'carl', shared: ['ip', 'deviceId'], at: '2026-11-20T09:00:00.000Z' },
            { kind: 'REFERRAL', id: null, campaignId: 'cmp_1', referralCode: 'EVE1', referrerId: 'eve', refereeId: null, shared: ['email'], at: '2026-11-20T08:00:00.000Z' },
          ],
          windowMinutes: 60,
        },
      } satisfies FlagDetail,
    });
    renderApp('/apps/app_1/fraud?flag=flg_high', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Flag evidence' });
    expect(await within(drawer).findByText('203.0.113.7')).toBeInTheDocument();
    expect(within(drawer).getByText('2.5 s')).toBeInTheDocument();
    expect(within(drawer).getByText('conv_9')).toBeInTheDocument();
    expect(within(drawer).getByText('IP address, device')).toBeInTheDocument();
    // A record refused after its check has no id: said so, not left blank.
    expect(within(drawer).getByText('refused, not stored')).toBeInTheDocument();
    // A VIEWER reads the evidence but cannot decide.
    expect(within(drawer).queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('shows a flag whose evidence the fraud service could not give, still decidable', async () => {
    const api = reviewApi().on('GET', '/api/v1/fraud/flags/flg_high', { body: { flag: openFlags[1]!, evidence: null } satisfies FlagDetail });
    renderApp('/apps/app_1/fraud?flag=flg_high', { session: sessionFor('MANAGER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Flag evidence' });
    expect(await within(drawer).findByText(/The fraud service did not answer/)).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
  });
});
