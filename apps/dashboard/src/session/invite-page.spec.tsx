import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { InvitationLink } from '../api/types';
import { FakeApi, apiError } from '../test/fake-api';
import { sessionFor } from '../test/fixtures';
import { renderApp } from '../test/render-app';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const LINK_PATH = `/console/v1/invitations/${TOKEN}`;
const link = (overrides: Partial<InvitationLink> = {}): InvitationLink => ({
  app: { id: 'app_2', name: 'Blog' },
  email: 'bo@example.com',
  role: 'MANAGER',
  invitedBy: 'ana@example.com',
  expiresAt: '2026-12-01T10:00:00.000Z',
  hasAccount: false,
  ...overrides,
});

describe('accepting an invitation by its link', () => {
  it('shows who invited which address to which app, takes a password twice, and lands in that app signed in', async () => {
    const session = sessionFor('MANAGER', { operator: { id: 'opr_9', email: 'bo@example.com', isAdmin: false }, apps: [{ id: 'app_2', name: 'Blog', role: 'MANAGER' }], currentAppId: 'app_2' });
    const api = new FakeApi().on('GET', LINK_PATH, { body: { invitation: link() } }).on('POST', `${LINK_PATH}/accept`, { body: session });
    const { location } = renderApp(`/invite/${TOKEN}`, { api });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Join Blog' });
    expect(screen.getByText(/invited/)).toHaveTextContent('ana@example.com invited bo@example.com to work in Blog as manager');
    expect(screen.getByLabelText('Email')).toHaveValue('bo@example.com');

    // The password rules, before anything is sent.
    await user.type(screen.getByLabelText(/^Choose a password/, { selector: 'input' }), 'too short');
    await user.type(screen.getByLabelText(/^Repeat the password/, { selector: 'input' }), 'too short!');
    await user.click(screen.getByRole('button', { name: 'Set password and join' }));
    expect(await screen.findByText('Too short: at least 12 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords differ')).toBeInTheDocument();
    expect(api.sent('POST', `${LINK_PATH}/accept`)).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Choose a password/, { selector: 'input' }));
    await user.type(screen.getByLabelText(/^Choose a password/, { selector: 'input' }), 'a good long password');
    await user.clear(screen.getByLabelText(/^Repeat the password/, { selector: 'input' }));
    await user.type(screen.getByLabelText(/^Repeat the password/, { selector: 'input' }), 'a good long password');
    await user.click(screen.getByRole('button', { name: 'Set password and join' }));
    await waitFor(() => expect(location()).toBe('/apps/app_2/overview'));
    expect(api.sent('POST', `${LINK_PATH}/accept`)[0]!.body).toEqual({ password: 'a good long password' });
    // Signed in: the session came with the answer, no probe needed.
    expect(api.sent('GET', '/console/v1/session/status')).toHaveLength(0);
  });

  it('asks an address that has an account for its password once, and shows a wrong one on its field', async () => {
    const api = new FakeApi()
      .on('GET', LINK_PATH, { body: { invitation: link({ hasAccount: true }) } })
      .on(
        'POST',
        `${LINK_PATH}/accept`,
        apiError(422, 'PASSWORD_WRONG', 'This address has an account: enter its password to accept.', {
          issues: [{ field: 'body.password', message: 'is not the password of the account of this address' }],
        }),
      );
    renderApp(`/invite/${TOKEN}`, { api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password of your account/, { selector: 'input' }), 'not my password');
    expect(screen.queryByLabelText(/^Repeat the password/, { selector: 'input' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('is not the password of the account of this address')).toBeInTheDocument();
  });

  it('tells a link that cannot be used as one, whatever the reason', async () => {
    const api = new FakeApi().on('GET', LINK_PATH, apiError(404, 'NOT_FOUND', 'This invitation link is not valid: it is unknown, used, revoked or expired.'));
    renderApp(`/invite/${TOKEN}`, { api });
    expect(await screen.findByRole('heading', { name: 'This invitation link is not valid' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ask the person who invited you for a new link.');
    expect(screen.getByRole('link', { name: 'Sign in with an account' })).toHaveAttribute('href', '/sign-in');
    expect(screen.queryByRole('form', { name: 'Accept the invitation' })).toBeNull();
  });
});
