import { Avatar, Group, Text } from '@mantine/core';

/** A badge as the pages show it: its image (or initial), name and key. */
export function BadgeIdentity({ badge }: { badge: { key: string; name: string; imageUrl: string | null } }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={badge.imageUrl} alt="" radius="xl" size="sm" color="yellow">
        {badge.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <div>
        <Text size="sm" fw={500}>
          {badge.name}
        </Text>
        <Text size="xs" c="dimmed">
          {badge.key}
        </Text>
      </div>
    </Group>
  );
}
