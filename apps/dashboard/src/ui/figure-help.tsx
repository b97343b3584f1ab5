import { Group, Tooltip, UnstyledButton } from '@mantine/core';

/**
 * What each referral figure counts: one definition, the API's
 * (docs/api.md#stats), written next to every place that shows the figure,
 * so that the dashboard and GET /stats never disagree unnoticed.
 */
export const FIGURE_HELP = {
  referrals: 'Referrals (codes) created.',
  clicks: 'Clicks on referral codes.',
  conversions: 'Referees who converted (an open fraud flag counts until decided; a rejected conversion never counts).',
  conversionRate: 'Converted referrals ÷ referrals × 100, all time: the conversionRate of GET /stats.',
  rewardValue: 'Rewards of these conversions and purchases, every level and side, less those cancelled and net of reversals: the API’s figure.',
  reversals: 'Refunds, chargebacks and cancellations recorded, of conversions and purchases: totalReversals of GET /stats.',
  /** Said under a reward value summed over campaigns in several currencies, which is then a plain number. */
  severalCurrencies: 'Your campaigns use several currencies: this sums their amounts as plain numbers.',
} as const;

/** A figure's name with its definition, shown on hover and on focus (and read by screen readers). */
export function FigureHelp({ label, help }: { label: string; help: string }) {
  return (
    <Group gap={4} wrap="nowrap" component="span">
      {label}
      <Tooltip label={help} multiline w={260} withArrow>
        <UnstyledButton aria-label={`${label}: ${help}`} fz="xs" c="dimmed" component="span" tabIndex={0}>
          ⓘ
        </UnstyledButton>
      </Tooltip>
    </Group>
  );
}
