import { Badge, Switch } from '@mantine/core';
import { useAllows } from '../session/session-context';
import { useChange } from './use-change';

/**
 * An on/off state of something (an action enabled, an item published): a
 * switch for a MANAGER or OWNER, a badge for a VIEWER. `subject` names it for
 * screen readers and in the notification (`“Daily login” disabled.`).
 */
export function StateSwitch({
  subject,
  on,
  words,
  ariaLabel,
  change,
  invalidates,
}: {
  subject: string;
  on: boolean;
  /** The state in words, on then off: `['enabled', 'disabled']`. */
  words: readonly [string, string];
  ariaLabel: string;
  change: (next: boolean) => Promise<unknown>;
  invalidates: ReadonlyArray<readonly string[]>;
}) {
  const canChange = useAllows('MANAGER');
  const toggle = useChange({ mutationFn: change, invalidates, success: (_r, next) => `“${subject}” ${next ? words[0] : words[1]}.` });
  if (!canChange) {
    return (
      <Badge color={on ? 'green' : 'gray'} variant="light">
        {on ? words[0] : words[1]}
      </Badge>
    );
  }
  return (
    <Switch
      checked={toggle.isPending ? toggle.variables : on}
      disabled={toggle.isPending}
      onChange={(e) => toggle.mutate(e.currentTarget.checked)}
      aria-label={ariaLabel}
      label={on ? words[0] : words[1]}
    />
  );
}
