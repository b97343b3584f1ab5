import { Select } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useAppId } from '../api/use-api';
import { useSession } from '../session/session-context';
import { useSwitchApp } from '../session/use-session-actions';
import { sectionOf } from './navigation';

/** Switches the app every page works in; the same page opens in the other app (without this app's filters). */
export function AppSwitcher() {
  const session = useSession();
  const appId = useAppId();
  const location = useLocation();
  const navigate = useNavigate();
  const switchApp = useSwitchApp();
  const data = session.apps.map((app) => ({ value: app.id, label: `${app.name} · ${app.role.toLowerCase()}` }));
  if (!data.some((d) => d.value === appId)) data.push({ value: appId, label: appId });
  return (
    <Select
      aria-label="App"
      data={data}
      value={appId}
      allowDeselect={false}
      searchable={data.length > 8}
      w={{ base: 150, sm: 240 }}
      size="sm"
      disabled={switchApp.isPending}
      onChange={(next) => {
        if (!next || next === appId) return;
        const section = sectionOf(location.pathname.replace(/^\/apps\/[^/]+/, ''));
        switchApp.mutate(next, { onSuccess: () => void navigate(`/apps/${encodeURIComponent(next)}/${section}`) });
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
