import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Invitation, IssuedInvitation, Member } from '../../api/types';
import { FakeApi, apiError } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const ana: Member = { operatorId: 'opr_1', email: 'ana@example.com', role: 'OWNER', addedAt: '2026-11-01T10:00:00.000Z' };
const LINK = 'http://localhost/dashboard/invite/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const invitation = (overrides: Partial<Invitation> = {}): Invitation => ({
  id: 'inv_1',
  email: 'new@example.com',
  role: 'MANAGER',
  invitedBy: { operatorId: 'opr_1', email: 'ana@example.com' },
  createdAt: '2026-11-24T10:00:00.000Z',
  sentAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-12-01T10:00:00.000Z',
  status: 'PENDING',
  ...overrides,
});
const issued = (i: Invitation, emailDelivery: IssuedInvitation['emailDelivery']): IssuedInvitation => ({ invitation: i, inviteUrl: LINK, emailDelivery });

describe('members', () => {
  it('invites someone without an account: shows the link once to copy, and whether it was e-mailed', async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [] } })
      .on('POST', '/console/v1/apps/app_1/members', { status: 202, body: issued(invitation(), 'SENT') });
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await screen.findByText('ana@example.com');
    const form = screen.getByRole('form', { name: 'Add a member' });
    await user.type(within(form).getByLabelText(/email/i), 'new@example.com');
    await user.click(within(form).getByLabelText('Role', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    // The list after the invitation shows it pending.
    api.on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [invitation()] } });
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(within(dialog).getByLabelText('Invitation link')).toHaveTextContent(LINK);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(within(dialog).getByText(/was e-mailed to/)).toHaveTextContent('The link was e-mailed to new@example.com.');
    expect(api.sent('POST', '/console/v1/apps/app_1/members')[0]!.body).toEqual({ email: 'new@example.com', role: 'MANAGER' });
    await user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    const pending = await screen.findByRole('region', { name: 'Pending invitations' });
    expect(within(pending).getByText('new@example.com')).toBeInTheDocument();
    expect(within(pending).getByText('Manager')).toBeInTheDocument();
  });

  it('says when the e-mail could not be sent, and still shows the link', async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [] } })
      .on('POST', '/console/v1/apps/app_1/members', { status: 202, body: issued(invitation(), 'FAILED') });
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await screen.findByText('ana@example.com');
    const form = screen.getByRole('form', { name: 'Add a member' });
    await user.type(within(form).getByLabelText(/email/i), 'new@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(within(dialog).getByText('The e-mail could not be sent')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Invitation link')).toHaveTextContent(LINK);
  });

  it('lists pending invitations (an expired one as such), makes a new link to copy again, and revokes one', async () => {
    const expired = invitation({ id: 'inv_2', email: 'late@example.com', role: 'VIEWER', status: 'EXPIRED' });
    const renewed = `${LINK}X`;
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [invitation(), expired] } })
      .on('POST', '/console/v1/apps/app_1/invitations/inv_2/resend', { body: { ...issued(invitation({ ...expired, status: 'PENDING' }), 'NOT_CONFIGURED'), inviteUrl: renewed } })
      .on('DELETE', '/console/v1/apps/app_1/invitations/inv_1', { status: 204 });
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    const pending = await screen.findByRole('region', { name: 'Pending invitations' });
    expect(within(pending).getByText('Expired')).toBeInTheDocument();

    await user.click(within(pending).getByRole('button', { name: 'New link for late@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(within(dialog).getByLabelText('Invitation link')).toHaveTextContent(renewed);
    expect(within(dialog).getByText(/No e-mail server is configured/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));

    await user.click(within(pending).getByRole('button', { name: 'Revoke the invitation of new@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.sent('DELETE', '/console/v1/apps/app_1/invitations/inv_1')).toHaveLength(1));
    expect(await screen.findByText('Invitation revoked: its link no longer works.')).toBeInTheDocument();
  });

  it('adds someone with an account at once', async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [] } })
      .on('POST', '/console/v1/apps/app_1/members', {
        status: 201,
        body: { member: { operatorId: 'opr_3', email: 'bo@example.com', role: 'VIEWER', addedAt: '2026-11-24T10:00:00.000Z' } },
      });
    renderApp('/apps/app_1/members', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await screen.findByText('ana@example.com');
    const form = screen.getByRole('form', { name: 'Add a member' });
    await user.type(within(form).getByLabelText(/email/i), 'bo@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('bo@example.com added as viewer.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Invitation link' })).toBeNull();
  });

  it("changes a role, and tells the server's refusal to demote the last owner", async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/members', { body: { members: [ana], invitations: [] } })
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
