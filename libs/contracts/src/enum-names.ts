/**
 * Generated enums drop their prefix (CampaignStatus.ACTIVE), so the public
 * names are the TypeScript member names. UNSPECIFIED (0) means "not set".
 * These names are the one list of an enum's values: the proto declares
 * them, services store them (EnumName), the gateway answers them.
 */
type NumericEnum = Record<string, string | number>;

/** The names of a generated enum but UNSPECIFIED: what a service stores and the public API shows. */
export type EnumName<E extends NumericEnum> = Exclude<Extract<keyof E, string>, 'UNSPECIFIED'>;

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

/** Every name of a generated enum but UNSPECIFIED, in the order of their values (the proto's). */
export function enumNames<E extends NumericEnum>(e: E): Array<EnumName<E>> {
  return Object.entries(e)
    .filter(([name, value]) => typeof value === 'number' && value !== 0 && name !== 'UNSPECIFIED')
    .sort(([, a], [, b]) => (a as number) - (b as number))
    .map(([name]) => name as EnumName<E>);
}
