import type { Role } from '../api/types';

export interface NavItem {
  /** Path under /apps/:appId. */
  path: string;
  label: string;
  /** The least role that sees the page at all. */
  least: Role;
}

export interface NavSection {
  label: string;
  items: NavItem[];
}

/**
 * The dashboard's pages by section: the referral program, the incentive
 * engine (what users earn, what they spend it on, how they rank), settings.
 * Users (one end user in full) spans both and stays with the first.
 */
export const NAVIGATION: NavSection[] = [
  {
    label: 'Referrals',
    items: [
      { path: 'overview', label: 'Overview', least: 'VIEWER' },
      { path: 'campaigns', label: 'Campaigns', least: 'VIEWER' },
      { path: 'referrals', label: 'Referrals & conversions', least: 'VIEWER' },
      { path: 'fraud', label: 'Fraud review', least: 'VIEWER' },
      { path: 'rewards', label: 'Rewards', least: 'VIEWER' },
      { path: 'payouts', label: 'Payouts', least: 'VIEWER' },
      { path: 'participants', label: 'Participants', least: 'VIEWER' },
      { path: 'users', label: 'Users', least: 'VIEWER' },
    ],
  },
  {
    label: 'Incentives',
    items: [
      { path: 'actions', label: 'Actions', least: 'VIEWER' },
      { path: 'events', label: 'Events', least: 'VIEWER' },
      { path: 'progression', label: 'Levels & badges', least: 'VIEWER' },
      { path: 'boosts', label: 'Boosts', least: 'VIEWER' },
      { path: 'catalog', label: 'Catalog', least: 'VIEWER' },
      { path: 'marketplace', label: 'Marketplace', least: 'VIEWER' },
      { path: 'leaderboard', label: 'Leaderboard', least: 'VIEWER' },
    ],
  },
  {
    label: 'Settings',
    items: [
      { path: 'developers', label: 'Developers', least: 'VIEWER' },
      { path: 'integrations', label: 'Integrations', least: 'VIEWER' },
      { path: 'members', label: 'Members', least: 'OWNER' },
      { path: 'audit', label: 'Audit log', least: 'VIEWER' },
    ],
  },
];

/** The section of a path under /apps/:appId (`campaigns/cmp_1` → `campaigns`). */
export function sectionOf(pathInApp: string): string {
  return pathInApp.split('/').filter(Boolean)[0] ?? 'overview';
}
