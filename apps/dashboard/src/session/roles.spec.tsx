import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeApi, page } from '../test/fake-api';
import { campaign, campaignStatsPage, flag, sessionFor } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { allows, roleIn } from './roles';

const CHANGE_BUTTONS = /new campaign|approve|reject|issue a key|add endpoint|revoke|send test event|rotate secret|retry now|save|pause|resume|end$|add$/i;

function viewerApi() {
  return new FakeApi()
    .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
    .on('GET', '/api/v1/stats/campaigns', { body: campaignStatsPage([campaign()]) })
    .on('GET', '/api/v1/fraud/flags', { body: { flags: [flag()], pagination: page(1) } })
    .on('GET', '/api/v1/webhooks', { body: { webhooks: [], pagination: page(0) } })
    .on('GET', '/api/v1/webhooks/wh_1', {
      body: {
        webhook: {
          id: 'wh_1',
          url: 'https://example.com/hook',
          events: [],
          description: null,
          enabled: true,
          disabledReason: null,
          disabledAt: null,
          failingSince: null,
          previousSecretExpiresAt: null,
          createdAt: '2026-11-01T10:00:00.000Z',
          updatedAt: '2026-11-01T10:00:00.000Z',
        },
      },
    })
    .on('GET', '/api/v1/webhooks/wh_1/deliveries', { body: { deliveries: [], pagination: page(0) } });
}

describe('roles', () => {
  it('rank OWNER over MANAGER over VIEWER; an administrator is OWNER of every app', () => {
    expect([allows('OWNER', 'MANAGER'), allows('MANAGER', 'MANAGER'), allows('VIEWER', 'MANAGER'), allows(null, 'VIEWER')]).toEqual([true, true, false, false]);
    const admin = sessionFor('VIEWER', { operator: { id: 'opr_a', email: 'root@example.com', isAdmin: true } });
    expect(roleIn(admin, 'app_other')).toBe('OWNER');
    expect(roleIn(sessionFor('VIEWER'), 'app_other')).toBeNull();
  });

  it.each([
    ['campaigns', '/apps/app_1/campaigns', 'Launch'],
    ['fraud review', '/apps/app_1/fraud', 'ANA123', ],
    ['developers', '/apps/app_1/developers', 'No endpoints'],
    ['a webhook endpoint', '/apps/app_1/developers/webhooks/wh_1', 'No deliveries'],
  ])('a VIEWER sees no change controls on %s', async (_name, path, loadedText) => {
    renderApp(path, { session: sessionFor('VIEWER'), api: viewerApi() });
    await screen.findAllByText(new RegExp(loadedText));
    // Some controls are links styled as buttons (New campaign): both count.
    const controls = [...screen.queryAllByRole('button'), ...screen.queryAllByRole('link')].map((b) => b.textContent ?? '');
    expect(controls.filter((text) => CHANGE_BUTTONS.test(text))).toEqual([]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('a VIEWER has no Members page in the navigation, nor the API keys tab', async () => {
    renderApp('/apps/app_1/developers', { session: sessionFor('VIEWER'), api: viewerApi() });
    await screen.findByText('No endpoints');
    expect(screen.queryByRole('link', { name: 'Members' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'API keys' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeInTheDocument();
  });

  it('an OWNER sees the change controls the VIEWER does not', async () => {
    renderApp('/apps/app_1/fraud', { session: sessionFor('OWNER'), api: viewerApi() });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject selected' })).toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Members' })).toBeInTheDocument();
  });

  it('an app the operator is not a member of shows nothing of it', async () => {
    const api = viewerApi();
    renderApp('/apps/app_9/campaigns', { session: sessionFor('OWNER'), api });
    expect(await screen.findByText('You are not a member of this app')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/stats/campaigns')).toHaveLength(0);
  });
});
