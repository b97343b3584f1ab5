import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import type { AuditEntry } from '../../api/types';
import { auditChanges } from './audit-diff';

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
    const unknown: AuditEntry = { ...entry, id: 'aud_2', operator: { id: 'opr_3', email: 'al@example.com' }, target: null, summary: 'Create an app', outcome: 'UNKNOWN' };
    const api = new FakeApi().on('GET', '/console/v1/apps/app_1/audit', { body: { entries: [entry, unknown], pagination: page(2) } });
    const { location } = renderApp('/apps/app_1/audit', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    expect(await screen.findByText('outcome unknown')).toBeInTheDocument();
    expect(screen.getAllByText(/pending|outcome unknown/)).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: 'Only changes by mo@example.com' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/audit?operatorId=opr_2'));
    await waitFor(() => expect(api.sent('GET', '/console/v1/apps/app_1/audit').at(-1)!.query.get('operatorId')).toBe('opr_2'));
    await user.click(screen.getByRole('button', { name: 'Before and after of Update a campaign' }));
    const drawer = await screen.findByRole('dialog', { name: 'Change' });
    expect(within(drawer).getByText('campaign.status')).toBeInTheDocument();
    expect(within(drawer).getByText('"ACTIVE"')).toBeInTheDocument();
    expect(within(drawer).getByText('"PAUSED"')).toBeInTheDocument();
  });
});
