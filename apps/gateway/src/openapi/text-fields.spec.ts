import { freeText, httpUrl, identifier, label, lineText, requiredText } from './text-fields';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;

describe('text fields of the public API', () => {
  it('takes identifiers of 1 to 128 characters without control characters or white space at either end', () => {
    const id = identifier('an id');
    expect(ok(id, 'cmp_3kT9aB')).toBe(true);
    expect(ok(id, 'user 42')).toBe(true);
    expect(ok(id, 'x'.repeat(128))).toBe(true);
    expect(ok(id, '😀'.repeat(128))).toBe(true);
    for (const bad of ['', 'x'.repeat(129), 'itm_\u0000', 'a\nb', 'a\u007fb', 'a\u0085b', ' a', 'a ', '\u00a0a', 'a\ufeff']) {
      expect([bad, ok(id, bad)]).toEqual([bad, false]);
    }
  });

  it('trims labels after checking them: not blank, no control characters, at most the maximum before trimming', () => {
    const name = label(10);
    expect(name.parse('  Launch  ')).toBe('Launch');
    expect(ok(name, '😀'.repeat(10))).toBe(true);
    for (const bad of ['', '   ', '\u3000', 'a\tb', 'a\u0000', 'x'.repeat(11), ` ${'x'.repeat(10)}`]) {
      expect([bad, ok(name, bad)]).toEqual([bad, false]);
    }
  });

  it('keeps tab and line breaks in free text, refuses other control characters', () => {
    expect(ok(freeText(20), 'line 1\r\nline 2\tend')).toBe(true);
    expect(ok(freeText(20), '')).toBe(true);
    expect(ok(freeText(20), 'nul \u0000')).toBe(false);
    expect(ok(freeText(20), 'bell \u0007')).toBe(false);
    expect(ok(lineText(20), 'a\nb')).toBe(false);
    expect(ok(lineText(20), '')).toBe(true);
  });

  it('takes a required text that says something: line breaks inside, never blank', () => {
    const note = requiredText(10);
    for (const good of ['Goodwill', '\ta\r\nb', ' x ', '😀'.repeat(10)]) expect([good, ok(note, good)]).toEqual([good, true]);
    for (const bad of ['', '   ', '\n\t\r', '\u3000', 'bell \u0007', 'x'.repeat(11)]) expect([bad, ok(note, bad)]).toEqual([bad, false]);
  });

  it('takes http(s) URLs the URL parser accepts, without credentials', () => {
    const url = httpUrl(100);
    for (const good of ['https://example.com/hook?x=1#y', 'http://127.0.0.1:8080/a%20b', 'HTTP://Example.COM', 'https://a.b.c:65535/']) {
      expect([good, ok(url, good)]).toEqual([good, true]);
      expect(() => new URL(good)).not.toThrow();
    }
    for (const bad of ['ftp://example.com/', 'http://user:pw@example.com/', 'http://1.2.3.999/', 'http://example.com:65536/', 'https://example.com/ø', 'not a url', '']) {
      expect([bad, ok(url, bad)]).toEqual([bad, false]);
    }
  });
});
