import dayjs from 'dayjs';

/** A timestamp as a person reads it, in their time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '—';
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD') : '—';
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `1 reward`, `2 rewards`, `1 delivery` from the plural. */
/** A percentage as the API gives it (two decimals): 33.33 %. */
export function formatPercent(value: number): string {
  return `${formatNumber(value, 2)} %`;
}

export function countOf(count: number, plural: string): string {
  const one = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.endsWith('s') ? plural.slice(0, -1) : plural;
  return `${formatNumber(count)} ${count === 1 ? one : plural}`;
}

export function formatAmount(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount of money in its currency (an ISO 4217 code), as Intl writes it:
 * `$1,234.50`, `€12.00`, `¥1,235`, `CHF 5.00`, with the currency's own
 * decimals. A code Intl does not know is written after the number.
 */
export function formatMoney(value: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      return `${formatAmount(value)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(value);
}

/** Amounts in several currencies, one sum per currency in the order first met (`$35.05 + €12.00`); `—` for none. */
export function formatSums(amounts: ReadonlyArray<{ amount: number; currency: string }>): string {
  const sums = new Map<string, number>();
  for (const { amount, currency } of amounts) sums.set(currency, (sums.get(currency) ?? 0) + amount);
  if (sums.size === 0) return '—';
  // Binary fractions' noise (0.1 + 0.2) rounded off below any currency's smallest unit.
  return [...sums].map(([currency, sum]) => formatMoney(Math.round(sum * 1e6) / 1e6, currency)).join(' + ');
}

/**
 * A sum of money whose currency may be unknown: in its currency when there is one (`formatMoney`), else as a plain
 * number (the app's campaigns in several currencies, whose sum has none).
 */
export function formatValue(value: number, currency: string | null): string {
  return currency ? formatMoney(value, currency) : formatAmount(value);
}

export interface Amounts {
  coins: number;
  xp: number;
  tokens: number;
}

/**
 * Coins, XP and tokens in words, the zeros left out (`50 coins · 120 XP`;
 * all zero: `nothing`); `signed` shows credits with + and debits with −.
 */
export function formatAmounts(amounts: Amounts, { signed = false }: { signed?: boolean } = {}): string {
  const parts = (
    [
      [amounts.coins, 'coins'],
      [amounts.xp, 'XP'],
      [amounts.tokens, 'tokens'],
    ] as const
  )
    .filter(([value]) => value !== 0)
    .map(([value, unit]) => `${signed ? (value > 0 ? '+' : '−') : ''}${formatNumber(signed ? Math.abs(value) : value)} ${unit}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing';
}

/** A length of time given in seconds, in its largest whole units (`90` → `1 min 30 s`, `0` → `none`). */
export function formatSeconds(seconds: number): string {
  if (seconds <= 0) return 'none';
  const units: Array<[number, string]> = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of units) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${unit}`);
    rest -= count * size;
  }
  return parts.slice(0, 2).join(' ');
}
