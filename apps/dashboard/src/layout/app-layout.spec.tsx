import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError, page } from '../test/fake-api';
import { campaignStatsPage, sessionFor, sessionStatus } from '../test/fixtures';
import { renderApp } from '../test/render-app';

function listsApi() {
  return new FakeApi()
    .on('GET', '/api/v1/campaigns', { body: { campaigns: [], pagination: page(0) } })
    .on('GET', '/api/v1/stats/campaigns', { body: campaignStatsPage([]) })
    .on('GET', '/api/v1/fraud/flags', { body: { flags: [], pagination: page(0) } });
}

describe('the app shell', () => {
  it('switches app from any page: the choice is kept on the server and the same page opens in the other app', async () => {
    const session = sessionFor('OWNER');
    const api = listsApi().on('PUT', '/console/v1/session/app', (r) => ({ body: { ...session, currentAppId: (r.body as { appId: string }).appId } }));
    const { location } = renderApp('/apps/app_1/fraud?status=REJECTED&campaignId=cmp_1', { session, api });
    const user = userEvent.setup();
    await screen.findByText('No rejected flags');
    await user.click(screen.getByLabelText('App', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /blog/i }));
    await waitFor(() => expect(location()).toBe('/apps/app_2/fraud'));
    const put = api.sent('PUT', '/console/v1/session/app')[0]!;
    expect(put.body).toEqual({ appId: 'app_2' });
    expect(put.headers.get('X-CSRF-Token')).toBe('csrf-123');
    // The other app's flags are read with its id, not the first app's.
    await waitFor(() => expect(api.sent('GET', '/api/v1/fraud/flags').at(-1)!.headers.get('X-App-Id')).toBe('app_2'));
  });

  it('goes to sign-in when the session ends under a page (any 401), with the way back', async () => {
    let signedIn = true;
    const api = new FakeApi()
      .on('GET', '/console/v1/session/status', () => sessionStatus(signedIn ? sessionFor('OWNER') : null))
      .on('GET', '/api/v1/stats/campaigns', () => {
        signedIn = false;
        return apiError(401, 'UNAUTHENTICATED', 'Sign in first.');
      });
    const { location } = renderApp('/apps/app_1/campaigns?status=ACTIVE', { api });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe(`/sign-in?returnTo=${encodeURIComponent('/apps/app_1/campaigns?status=ACTIVE')}`);
  });

  it('signs out on the server and goes to sign-in', async () => {
    const api = listsApi().on('DELETE', '/console/v1/session', { status: 204 });
    const { location } = renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /operator menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe('/sign-in');
    expect(api.sent('DELETE', '/console/v1/session')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
  });

  it('changes the password, checking the new one locally first', async () => {
    const api = listsApi().on('POST', '/console/v1/session/password', { status: 204 });
    renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /operator menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    await user.type(screen.getByLabelText(/current password/i, { selector: 'input' }), 'old-password-1');
    await user.type(screen.getByLabelText(/^new password/i, { selector: 'input' }), 'short');
    await user.type(screen.getByLabelText(/repeat/i, { selector: 'input' }), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Too short: at least 12 characters')).toBeInTheDocument();
    expect(api.sent('POST', '/console/v1/session/password')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^new password/i, { selector: 'input' }), '-and-longer');
    await user.type(screen.getByLabelText(/repeat/i, { selector: 'input' }), '-and-longer');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(api.sent('POST', '/console/v1/session/password')).toHaveLength(1));
    expect(api.sent('POST', '/console/v1/session/password')[0]!.body).toEqual({ currentPassword: 'old-password-1', newPassword: 'short-and-longer' });
  });

  it('shows a wrong current password on its field (422 CURRENT_PASSWORD_WRONG), still signed in', async () => {
    const api = listsApi().on(
      'POST',
      '/console/v1/session/password',
      apiError(422, 'CURRENT_PASSWORD_WRONG', 'The current password is wrong.', { issues: [{ field: 'body.currentPassword', message: 'is wrong' }] }),
    );
    const { location } = renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /operator menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    await user.type(screen.getByLabelText(/current password/i, { selector: 'input' }), 'not-my-password');
    await user.type(screen.getByLabelText(/^new password/i, { selector: 'input' }), 'a-new-long-password');
    await user.type(screen.getByLabelText(/repeat/i, { selector: 'input' }), 'a-new-long-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is wrong.')).toBeInTheDocument();
    expect(location()).toBe('/apps/app_1/campaigns');
  });

  it('offers a burger for the navigation and a light/dark switch', async () => {
    renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api: listsApi() });
    expect(await screen.findByRole('button', { name: 'Open navigation' })).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: /switch to (dark|light) mode/i });
    const before = toggle.getAttribute('aria-label');
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('button', { name: /switch to (dark|light) mode/i }).getAttribute('aria-label')).not.toBe(before));
  });

  it("opens the operator's current app from the dashboard's root, and tells an operator of no app", async () => {
    const first = renderApp('/', { session: sessionFor('VIEWER', { currentAppId: 'app_2' }), api: listsApi() });
    await waitFor(() => expect(first.location()).toBe('/apps/app_2/overview'));
    first.unmount();
    renderApp('/', { session: sessionFor('VIEWER', { apps: [], currentAppId: null }) });
    expect(await screen.findByText('You are not a member of any app yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('offers "Skip to content" as the first stop of Tab, which moves the focus past the header and navigation to the page', async () => {
    renderApp('/apps/app_1/campaigns', { session: sessionFor('OWNER'), api: listsApi() });
    await screen.findByRole('heading', { name: 'Campaigns' });
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    // The next stop is the page's own first control, not the header or the fifteen links of the navigation.
    await user.tab();
    expect(main).toContainElement(document.activeElement as HTMLElement);
    expect(screen.getByRole('navigation', { name: 'Pages' })).not.toContainElement(document.activeElement as HTMLElement);
  });
});
