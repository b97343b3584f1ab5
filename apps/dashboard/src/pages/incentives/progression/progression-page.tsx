import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { PageHeader } from '../../../ui/page-header';
import { UrlTabs } from '../../../ui/url-tabs';
import { BadgesPanel } from './badges-panel';
import { LevelsPanel } from './levels-panel';
import { MilestonesPanel } from './milestones-panel';
import { StreaksPanel } from './streaks-panel';

/** Levels, badges, milestones and streaks: what XP and activity lead to. */
export function ProgressionPage() {
  const api = useApi();
  const appId = useAppId();
  // Badges a level or milestone may award (the first 100).
  const badges = useQuery({
    queryKey: ['app', appId, 'progression', 'badges', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/badges', { params: { query: { limit: 100 } } })),
    select: (d) => d.badges.map((b) => ({ value: b.key, label: `${b.name} (${b.key})` })),
  });
  const badgeOptions = badges.data ?? [];
  return (
    <>
      <PageHeader title="Levels & badges" description="The ladder of levels XP climbs, the badges users collect, the milestones that reward activity once, and the streaks that reward it day after day." />
      <UrlTabs
        label="Levels, badges, milestones and streaks"
        tabs={[
          { value: 'levels', label: 'Levels', panel: <LevelsPanel badgeOptions={badgeOptions} /> },
          { value: 'badges', label: 'Badges', panel: <BadgesPanel /> },
          { value: 'milestones', label: 'Milestones', panel: <MilestonesPanel badgeOptions={badgeOptions} /> },
          { value: 'streaks', label: 'Streaks', panel: <StreaksPanel badgeOptions={badgeOptions} /> },
        ]}
      />
    </>
  );
}
