import { newId, randomBase62 } from './new-id';

describe('ids', () => {
  it('are the prefix and 20 base62 characters, distinct across many refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newId('whd'));
    for (const id of ids) expect(id).toMatch(/^whd_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every character of the alphabet turns up: no byte range is lost at a refill.
    expect(new Set(ids.join('').slice(0, 100_000).replace(/whd_/g, '')).size).toBe(62);
  });

  it('randomBase62 gives the length asked for', () => {
    expect(randomBase62(40)).toMatch(/^[0-9A-Za-z]{40}$/);
  });
});
