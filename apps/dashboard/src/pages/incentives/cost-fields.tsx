import { Checkbox, Group, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { formatNumber } from '../../ui/format';

/** Whole numbers from 0 to 1 000 000 000, as the API takes amounts. */
export const WHOLE_AMOUNT = { min: 0, max: 1_000_000_000, allowDecimal: false, allowNegative: false, thousandSeparator: ',' } as const;

/** What a catalog item or listing costs, in words (`100 coins + 2 tokens`; `free`). */
export function costText({ coinCost, tokenCost }: { coinCost: number; tokenCost: number }): string {
  const parts = [coinCost > 0 ? `${formatNumber(coinCost)} coins` : null, tokenCost > 0 ? `${formatNumber(tokenCost)} tokens` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' + ') : 'free';
}

/** Units or codes left: -1 is unlimited. */
export function stockText(left: number): string {
  if (left < 0) return 'unlimited';
  return left === 0 ? 'none left' : `${formatNumber(left)} left`;
}

/** The form fields of what something costs and how many are left (`unlimited` ticked sends -1). */
export interface PricedValues {
  coinCost: number | string;
  tokenCost: number | string;
  unlimited: boolean;
  stock: number | string;
}

export const whole = (value: number | string) => (typeof value === 'number' ? value : Number(value || 0));

/** The stock a form sends: -1 when unlimited. */
export function stockOf(values: PricedValues): number {
  return values.unlimited ? -1 : whole(values.stock);
}

export function PriceAndStockFields<V extends PricedValues>({ form, stockLabel }: { form: UseFormReturnType<V>; stockLabel: string }) {
  const unlimited = form.getValues().unlimited;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput label="Coin cost" required {...WHOLE_AMOUNT} {...form.getInputProps('coinCost')} />
        <NumberInput label="Token cost" {...WHOLE_AMOUNT} {...form.getInputProps('tokenCost')} />
      </SimpleGrid>
      <Group align="flex-end" wrap="wrap">
        <Checkbox label={`Unlimited ${stockLabel.toLowerCase()}`} {...form.getInputProps('unlimited', { type: 'checkbox' })} />
        {!unlimited && <NumberInput label={stockLabel} {...WHOLE_AMOUNT} {...form.getInputProps('stock')} w={{ base: '100%', xs: 200 }} />}
      </Group>
    </Stack>
  );
}

/** The coins, XP and tokens something grants (an action, a milestone). */
export function GrantFields<V extends { coins: number | string; xp: number | string; tokens: number | string }>({ form }: { form: UseFormReturnType<V> }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }}>
      <NumberInput label="Coins" {...WHOLE_AMOUNT} {...form.getInputProps('coins')} />
      <NumberInput label="XP" {...WHOLE_AMOUNT} {...form.getInputProps('xp')} />
      <NumberInput label="Tokens" {...WHOLE_AMOUNT} {...form.getInputProps('tokens')} />
    </SimpleGrid>
  );
}
