/**
 * Generated enums drop their prefix (CampaignStatus.ACTIVE), so the public
 * names are the TypeScript member names. UNSPECIFIED (0) means "not set".
 */
type NumericEnum = Record<string, string | number>;

export function enumName<E extends NumericEnum>(e: E, value: number): string | undefined {
  if (value === 0) return undefined;
  const name = (e as Record<number, string | undefined>)[value];
  return typeof name === 'string' ? name : undefined;
}

export function enumValue<E extends NumericEnum>(e: E, name: string | null | undefined): E[keyof E] {
  if (!name) return 0 as E[keyof E];
  const value = e[name];
  if (typeof value !== 'number') throw new Error(`unknown enum name ${name}`);
  return value as E[keyof E];
}
