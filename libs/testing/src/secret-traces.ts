/**
 * The forms a leaked secret could take in stored data: as given, in base64,
 * base64url and hex, and for a whsec_ secret also its key bytes (the part
 * that actually signs) in each of those encodings.
 */
function textForms(secret: string): string[] {
  const forms = [secret, ...encodings(Buffer.from(secret, 'utf8'))];
  if (secret.startsWith('whsec_')) forms.push(secret.slice('whsec_'.length), ...encodings(Buffer.from(secret.slice('whsec_'.length), 'base64')));
  return [...new Set(forms.filter((form) => form.length >= 16))];
}

function encodings(bytes: Buffer): string[] {
  return [bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'), bytes.toString('hex')];
}

function byteForms(secret: string): Buffer[] {
  const forms = [Buffer.from(secret, 'utf8')];
  if (secret.startsWith('whsec_')) forms.push(Buffer.from(secret.slice('whsec_'.length), 'base64'));
  return forms;
}

function asBytes(value: object): Buffer | null {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value);
  // A BSON Binary read with the plain driver.
  const binary = value as { _bsontype?: string; buffer?: Uint8Array };
  return binary._bsontype === 'Binary' && binary.buffer ? Buffer.from(binary.buffer) : null;
}

/**
 * Every place in `value` (documents read raw from a database, every field at
 * any depth, keys included) where `secret` shows in any form it could be
 * read back from; an empty list when it is nowhere.
 */
export function secretTraces(value: unknown, secret: string, path = '$'): string[] {
  const texts = textForms(secret);
  const bytes = byteForms(secret);
  const found: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      if (texts.some((form) => node.includes(form))) found.push(at);
      return;
    }
    if (!node || typeof node !== 'object' || node instanceof Date) return;
    const raw = asBytes(node);
    if (raw) {
      if (bytes.some((form) => raw.includes(form)) || texts.some((form) => raw.toString('latin1').includes(form))) found.push(at);
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (texts.some((form) => key.includes(form))) found.push(`${at} (key)`);
      visit(child, `${at}.${key}`);
    }
  };
  visit(value, path);
  return found;
}
