import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Member } from '../../api/types';
import { FakeApi, apiError } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const ana: Member = { operatorId: 'opr_1', email: 'ana@example.com', role: 'OWNER', addedAt: '2026-11-01T10:00:00.000Z' };

describe('members', () => {
  it('adds someone new and shows their first password once', async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana] } })
      .on('POST', '/console/v1/apps/app_1/members', {
        status: 201,
        body: { member: { operatorId: 'opr_3', email: 'new@example.com', role: 'MANAGER', addedAt: '2026-11-24T10:00:00.000Z' }, initialPassword: 'first-pass-123456' },
      });
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await screen.findByText('ana@example.com');
    const form = screen.getByRole('form', { name: 'Add a member' });
    await user.type(within(form).getByLabelText(/email/i), 'new@example.com');
    await user.click(within(form).getByLabelText('Role', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Account created' });
    expect(within(dialog).getByText('first-pass-123456')).toBeInTheDocument();
    expect(api.sent('POST', '/console/v1/apps/app_1/members')[0]!.body).toEqual({ email: 'new@example.com', role: 'MANAGER' });
  });

  it("changes a role, and tells the server's refusal to demote the last owner", async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana] } })
      .on('PATCH', '/console/v1/apps/app_1/members/opr_1', apiError(409, 'LAST_OWNER', 'An app keeps at least one OWNER: make another member OWNER first.'));
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Role of ana@example.com', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    expect(await screen.findByText('An app keeps at least one OWNER: make another member OWNER first.')).toBeInTheDocument();
    // The list still shows the role the server kept.
    expect(screen.getByLabelText('Role of ana@example.com', { selector: 'input' })).toHaveValue('Owner');
    await waitFor(() => expect(api.sent('PATCH', '/console/v1/apps/app_1/members/opr_1')[0]!.body).toEqual({ role: 'VIEWER' }));
  });

  it('is not open to a manager', async () => {
    renderApp('/apps/app_1/members', { session: sessionFor('MANAGER') });
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });
});
