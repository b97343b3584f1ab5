import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useAppId } from '../api/use-api';
import { allows } from '../session/roles';
import { useRole, useSession } from '../session/session-context';
import { Empty } from '../ui/query-state';
import { AppSwitcher } from './app-switcher';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { NAVIGATION } from './navigation';
import { OperatorMenu } from './operator-menu';
import { SkipLink, contentTarget } from './skip-link';

/** Header (app switcher, theme, operator), navigation by section, and the page. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const appId = useAppId();
  const role = useRole();
  const session = useSession();
  const location = useLocation();
  const base = `/apps/${encodeURIComponent(appId)}`;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Anchor component={Link} to={`${base}/overview`} underline="never" c="inherit" visibleFrom="xs">
              <Title order={2} size="h4">
                Referrals
              </Title>
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <AppSwitcher />
            <ColorSchemeToggle />
            <OperatorMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages">
        <ScrollArea>
          <Stack gap="md">
            {NAVIGATION.map((section) => {
              const items = section.items.filter((item) => allows(role, item.least));
              if (items.length === 0) return null;
              return (
                <div key={section.label} role="group" aria-label={section.label}>
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                    {section.label}
                  </Text>
                  {items.map((item) => (
                    <NavLink
                      key={item.path}
                      component={RouterNavLink}
                      to={`${base}/${item.path}`}
                      label={item.label}
                      active={location.pathname.startsWith(`${base}/${item.path}`)}
                      onClick={close}
                    />
                  ))}
                </div>
              );
            })}
          </Stack>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main {...contentTarget}>
        {role === null ? (
          <Empty title="You are not a member of this app" description="Pick one of your apps in the switcher above.">
            {session.apps[0] && (
              <Anchor component={Link} to={`/apps/${encodeURIComponent(session.apps[0].id)}/overview`}>
                Open {session.apps[0].name}
              </Anchor>
            )}
          </Empty>
        ) : (
          <Outlet />
        )}
      </AppShell.Main>
    </AppShell>
  );
}
