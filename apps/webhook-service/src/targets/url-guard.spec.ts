import { TargetRefusedError, checkTarget, classifyAddress, parseWebhookUrl, type Resolver } from './url-guard';

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TargetRefusedError) return err.reason;
    throw err;
  }
  return 'accepted';
};

const resolverFor =
  (answers: Record<string, string[]>): Resolver =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook URL guard', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['203.0.113.7', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00::1', 'private'],
    ['fc12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('refuses what is not an IP address', () => {
    expect(() => classifyAddress('example.com')).toThrow();
  });

  it('accepts only absolute http(s) URLs without credentials', () => {
    expect(parseWebhookUrl(' https://hooks.example.com/in?x=1 ').toString()).toBe('https://hooks.example.com/in?x=1');
    const bad: Array<[string, string]> = [
      ['not a url', 'INVALID_URL'],
      ['/relative', 'INVALID_URL'],
      ['ftp://example.com/', 'UNSUPPORTED_SCHEME'],
      ['file:///etc/passwd', 'UNSUPPORTED_SCHEME'],
      ['javascript:alert(1)', 'UNSUPPORTED_SCHEME'],
      ['https://user:pass@example.com/', 'CREDENTIALS_IN_URL'],
      [`https://example.com/${'x'.repeat(2100)}`, 'INVALID_URL'],
    ];
    for (const [url, reason] of bad) {
      expect(() => parseWebhookUrl(url)).toThrow(expect.objectContaining({ reason }));
    }
  });

  describe('with private targets not allowed (the production setting)', () => {
    const options = {
      allowPrivateTargets: false,
      resolve: resolverFor({
        'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'localhost': ['127.0.0.1', '::1'],
        'internal.example.com': ['10.0.0.5'],
        // A name answering with a public and a private address: the connection could be steered to either.
        'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
        'metadata.example.com': ['169.254.169.254'],
        'mapped.example.com': ['::ffff:127.0.0.1'],
      }),
    };
    const check = (url: string) => refusal(checkTarget(parseWebhookUrl(url), options));

    it('accepts hosts that resolve to public addresses only', async () => {
      expect(await check('https://hooks.example.com/webhooks')).toBe('accepted');
      expect(await check('http://93.184.216.34:8080/')).toBe('accepted');
      expect(await check('http://[2606:4700:4700::1111]/')).toBe('accepted');
    });

    it.each([
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://[::1]/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://10.0.0.1/',
      'http://192.168.1.20/',
      'http://172.20.0.3/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a00:1]/',
      'http://224.0.0.1/',
      'http://2130706433/', // 127.0.0.1 as one number: the URL parser normalises it
      'http://0x7f.1/',
      'http://internal.example.com/',
      'http://mixed.example.com/',
      'http://metadata.example.com/',
      'http://mapped.example.com/',
    ])('refuses %s', async (url) => {
      expect(await check(url)).toBe('PRIVATE_TARGET');
    });

    it('refuses a host that does not resolve', async () => {
      expect(await check('https://nowhere.example.com/')).toBe('UNRESOLVABLE_HOST');
    });

    it('refuses a name longer than DNS allows without asking DNS (getaddrinfo answers EINVAL, not "not found")', async () => {
      const long = `https://${`${'a'.repeat(63)}.`.repeat(4)}com/`;
      expect(await refusal(checkTarget(parseWebhookUrl(long), { allowPrivateTargets: true }))).toBe('UNRESOLVABLE_HOST');
    });
  });

  it('lets private targets through when the deployment allows them', async () => {
    const allowed = { allowPrivateTargets: true, resolve: resolverFor({ localhost: ['127.0.0.1'] }) };
    expect(await checkTarget(parseWebhookUrl('http://127.0.0.1:9/'), allowed)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await checkTarget(parseWebhookUrl('http://localhost/'), allowed)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await refusal(checkTarget(parseWebhookUrl('http://nowhere.example/'), allowed))).toBe('UNRESOLVABLE_HOST');
  });
});
