import { generatePassword, hashPassword, verifyNothing, verifyPassword } from './password-hash';

describe('operator password hashing (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash with N = 2^15, r = 8, p = 1, a 16-byte salt and never the password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const [kind, n, r, p, salt, hash] = stored.split('$');
    expect([kind, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(32);
    expect(stored).not.toContain('horse');
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts each hash: the same password twice gives two different stored values, both valid', async () => {
    const [a, b] = await Promise.all([hashPassword('same password here'), hashPassword('same password here')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password here', a)).toBe(true);
    expect(await verifyPassword('same password here', b)).toBe(true);
  });

  it('treats a password and its NFD form alike (what a keyboard sends differs by system)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!!');
    expect(await verifyPassword('cafe\u0301 au lait!!', stored)).toBe(true);
  });

  it('never matches a malformed or foreign stored value, nor one asking for outsized parameters', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$2b$10$abc')).toBe(false);
    const huge = (await hashPassword('x')).replace('$32768$', '$1073741824$');
    expect(await verifyPassword('x', huge)).toBe(false);
  });

  it('spends about the time of a real verification on an unknown account', async () => {
    const stored = await hashPassword('warm up the dummy');
    await verifyNothing('warm up');
    const time = async (work: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const real = await time(() => verifyPassword('a wrong password', stored));
    const none = await time(() => verifyNothing('a wrong password'));
    expect(none).toBeGreaterThan(real / 3);
    expect(await verifyNothing('anything')).toBe(false);
  });

  it('generates passwords of 24 base62 characters, never the same twice', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
