import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError } from '../test/fake-api';
import { campaignStatsPage, sessionFor, sessionStatus } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { landingPath, safeReturnTo } from './sign-in-page';

describe('signing in', () => {
  it('sends an operator without a session to sign-in, keeping where they were going', async () => {
    // Signed out is an answer of the probe (200, session null), not a 401 the browser would log.
    const api = new FakeApi().on('GET', '/console/v1/session/status', sessionStatus(null));
    const { location } = renderApp('/apps/app_1/fraud?status=REJECTED', { api });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe(`/sign-in?returnTo=${encodeURIComponent('/apps/app_1/fraud?status=REJECTED')}`);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /console/v1/session/status']);
  });

  it("shows the API's error on a wrong password and stays", async () => {
    const api = new FakeApi().on('POST', '/console/v1/session', apiError(401, 'UNAUTHENTICATED', 'Email or password is wrong.'));
    const { location } = renderApp('/sign-in', { api });
    await userEvent.type(await screen.findByLabelText(/email/i), 'ana@example.com');
    await userEvent.type(screen.getByLabelText(/password/i, { selector: 'input' }), 'nope-nope-nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email or password is wrong.');
    expect(location()).toBe('/sign-in');
    expect(api.sent('POST', '/console/v1/session')[0]!.body).toEqual({ email: 'ana@example.com', password: 'nope-nope-nope' });
  });

  it('tells how long to wait when throttled (429 with Retry-After)', async () => {
    const api = new FakeApi().on('POST', '/console/v1/session', apiError(429, 'RATE_LIMITED', 'Too many sign-in attempts.', undefined, { 'Retry-After': '120' }));
    renderApp('/sign-in', { api });
    await userEvent.type(await screen.findByLabelText(/email/i), 'ana@example.com');
    await userEvent.type(screen.getByLabelText(/password/i, { selector: 'input' }), 'secret-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in 120 s.');
  });

  it('goes back where the operator was going once signed in', async () => {
    const session = sessionFor('OWNER');
    const api = new FakeApi()
      .on('POST', '/console/v1/session', { body: session })
      .on('GET', '/console/v1/session/status', sessionStatus(session))
      .on('GET', '/api/v1/stats/campaigns', { body: campaignStatsPage([]) });
    const { location } = renderApp(`/sign-in?returnTo=${encodeURIComponent('/apps/app_1/campaigns?status=PAUSED')}`, { api });
    await userEvent.type(await screen.findByLabelText(/email/i), ' ana@example.com ');
    await userEvent.type(screen.getByLabelText(/password/i, { selector: 'input' }), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Campaigns' });
    expect(location()).toBe('/apps/app_1/campaigns?status=PAUSED');
    expect(api.sent('POST', '/console/v1/session')[0]!.body).toEqual({ email: 'ana@example.com', password: 'correct horse battery' });
    // The list was read in the app of the URL, with the session (no key in the browser).
    await waitFor(() => expect(api.sent('GET', '/api/v1/stats/campaigns')[0]?.headers.get('X-App-Id')).toBe('app_1'));
    expect(api.sent('GET', '/api/v1/stats/campaigns')[0]!.headers.get('Authorization')).toBeNull();
  });

  it('lands in the operator’s current app without a return path, and never leaves the dashboard', () => {
    const session = sessionFor('VIEWER', { currentAppId: 'app_2' });
    expect(landingPath(session, null)).toBe('/apps/app_2/overview');
    expect(landingPath(session, '//evil.example/x')).toBe('/apps/app_2/overview');
    expect(safeReturnTo('https://evil.example')).toBeNull();
    // A member of no app yet (currentAppId null) lands on the start page, which says so.
    expect(landingPath(sessionFor('VIEWER', { apps: [], currentAppId: null }), null)).toBe('/');
    expect(safeReturnTo('/apps/app_1/users?userId=u1')).toBe('/apps/app_1/users?userId=u1');
  });
});
