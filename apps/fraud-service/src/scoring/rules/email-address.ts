/**
 * Email comparison for fraud rules: case-insensitive, with plus-aliases and
 * dots in the local part removed (jo.hn+promo@x.com and john@x.com reach the
 * same inbox at the big providers, and are a classic self-referral trick).
 * googlemail.com is gmail.com.
 */
export function normalizeEmail(raw: string | null | undefined): string | null {
  const email = raw?.trim().toLowerCase();
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  const local = email.slice(0, at).split('+')[0].replace(/\./g, '');
  let domain = email.slice(at + 1);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  return local ? `${local}@${domain}` : null;
}

/** Same address, ignoring only case and surrounding spaces. */
export function sameExactEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = a?.trim().toLowerCase();
  const y = b?.trim().toLowerCase();
  return !!x && x === y;
}

export function emailDomain(raw: string | null | undefined): string | null {
  const email = raw?.trim().toLowerCase();
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at <= 0 || at === email.length - 1) return null;
  return email.slice(at + 1);
}
