import { Button, Center, Loader } from '@mantine/core';
import { Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../layout/app-layout';
import { AuditPage } from '../pages/audit/audit-page';
import { ActionsPage } from '../pages/incentives/actions/actions-page';
import { BoostsPage } from '../pages/incentives/boosts/boosts-page';
import { EventsPage } from '../pages/incentives/events/events-page';
import { CatalogPage } from '../pages/incentives/catalog/catalog-page';
import { MarketplacePage } from '../pages/incentives/marketplace/marketplace-page';
import { ProgressionPage } from '../pages/incentives/progression/progression-page';
import { LeaderboardPage } from '../pages/incentives/leaderboard/leaderboard-page';
import { CampaignEditPage } from '../pages/campaigns/campaign-edit-page';
import { CampaignsPage } from '../pages/campaigns/campaigns-page';
import { DevelopersPage } from '../pages/developers/developers-page';
import { WebhookPage } from '../pages/developers/webhook-page';
import { FraudReviewPage } from '../pages/fraud/fraud-review-page';
import { MembersPage } from '../pages/members/members-page';
import { NotFoundPage } from '../pages/not-found-page';
import { ReferralsPage } from '../pages/referrals/referrals-page';
import { RewardsPage } from '../pages/rewards/rewards-page';
import { PayoutsPage } from '../pages/payouts/payouts-page';
import { IntegrationsPage } from '../pages/integrations/integrations-page';
import { UsersPage } from '../pages/users/users-page';
import { ParticipantsPage } from '../pages/participants/participants-page';
import { useSession } from '../session/session-context';
import { InvitePage } from '../session/invite-page';
import { SessionGate } from '../session/session-gate';
import { SignInPage } from '../session/sign-in-page';
import { useSignOut } from '../session/use-session-actions';
import { Empty } from '../ui/query-state';
import { RequireRole } from '../ui/require-role';

/** `/` opens the app the operator used last (the session's current app); an operator of no app is told so. */
function LandingRedirect() {
  const session = useSession();
  const signOut = useSignOut();
  if (!session.currentAppId) {
    return (
      <Empty title="You are not a member of any app yet" description={`Signed in as ${session.operator.email}. Ask an owner of an app to add you.`}>
        <Button variant="light" onClick={() => signOut.mutate()}>
          Sign out
        </Button>
      </Empty>
    );
  }
  return <Navigate to={`/apps/${encodeURIComponent(session.currentAppId)}/overview`} replace />;
}

/** Every page, relative to the router's basename (/dashboard in the browser). */
export const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage /> },
  // An invitation's link: read and accepted without a session (accepting signs in).
  { path: '/invite/:token', element: <InvitePage /> },
  {
    path: '/',
    element: <SessionGate />,
    // Shown while a page loaded on demand (the overview) arrives at start-up.
    hydrateFallbackElement: (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    ),
    children: [
      { index: true, element: <LandingRedirect /> },
      {
        path: 'apps/:appId',
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          // Loaded when first opened: it alone needs the chart library, the largest part of the bundle.
          { path: 'overview', lazy: () => import('../pages/overview/overview-page').then((m) => ({ Component: m.OverviewPage })) },
          { path: 'campaigns', element: <CampaignsPage /> },
          { path: 'campaigns/new', element: <CampaignEditPage /> },
          { path: 'campaigns/:campaignId', element: <CampaignEditPage /> },
          { path: 'referrals', element: <ReferralsPage /> },
          { path: 'fraud', element: <FraudReviewPage /> },
          { path: 'rewards', element: <RewardsPage /> },
          { path: 'payouts', element: <PayoutsPage /> },
          { path: 'participants', element: <ParticipantsPage /> },
          { path: 'users', element: <UsersPage /> },
          { path: 'actions', element: <ActionsPage /> },
          { path: 'events', element: <EventsPage /> },
          { path: 'progression', element: <ProgressionPage /> },
          { path: 'boosts', element: <BoostsPage /> },
          { path: 'catalog', element: <CatalogPage /> },
          { path: 'marketplace', element: <MarketplacePage /> },
          { path: 'leaderboard', element: <LeaderboardPage /> },
          { path: 'developers', element: <DevelopersPage /> },
          { path: 'developers/webhooks/:webhookId', element: <WebhookPage /> },
          { path: 'integrations', element: <IntegrationsPage /> },
          { path: 'members', element: <RequireRole least="OWNER"><MembersPage /></RequireRole> },
          { path: 'audit', element: <AuditPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
