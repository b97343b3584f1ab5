import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * The SSRF guard: a webhook URL is something a tenant types, and the service
 * POSTs to it from inside the deployment's network. Targets on private,
 * loopback, link-local, unspecified, multicast or reserved addresses are
 * refused unless the deployment allows them (tests, local runs). The check
 * runs when an endpoint is saved and again before every attempt, on the very
 * addresses the connection then uses (see webhook-http-client.ts), so a DNS
 * answer that changes between the two (rebinding) gains nothing.
 */

export type AddressKind = 'public' | 'unspecified' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved';

export type TargetRefusal =
  | 'INVALID_URL'
  | 'UNSUPPORTED_SCHEME'
  | 'CREDENTIALS_IN_URL'
  | 'UNRESOLVABLE_HOST'
  | 'PRIVATE_TARGET';

export class TargetRefusedError extends Error {
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** A DNS failure that is not an answer (timeout, SERVFAIL): worth retrying, not the caller's fault. */
export class ResolutionUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResolutionUnavailableError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const MAX_URL_LENGTH = 2048;

type Range = { bytes: number[]; prefix: number; kind: AddressKind | 'embedded-ipv4' };

const v4 = (cidr: string, kind: AddressKind): Range => {
  const [ip, prefix] = cidr.split('/');
  return { bytes: ip.split('.').map(Number), prefix: Number(prefix), kind };
};
const v6 = (cidr: string, kind: Range['kind']): Range => {
  const [ip, prefix] = cidr.split('/');
  return { bytes: ipv6Bytes(ip) as number[], prefix: Number(prefix), kind };
};

// IANA special-purpose registries, as far as they matter for "could this
// reach something inside the deployment".
const IPV4_RANGES: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'private'), // shared address space (carrier-grade NAT)
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'), // includes cloud metadata (169.254.169.254)
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // includes 255.255.255.255
];

// Most specific first: ::/128 and ::1/128 sit inside ::/96.
const IPV6_RANGES: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::ffff:0:0/96', 'embedded-ipv4'), // IPv4-mapped
  v6('64:ff9b::/96', 'embedded-ipv4'), // NAT64 well-known prefix
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('::/96', 'reserved'), // deprecated IPv4-compatible
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/32', 'reserved'), // Teredo (embeds obfuscated IPv4)
  v6('2002::/16', 'embedded-ipv4'), // 6to4: bits 16..47 are an IPv4 address
  v6('fc00::/7', 'private'), // unique local
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.prefix;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function ipv6Bytes(text: string): number[] | null {
  let s = text.split('%')[0]; // zone id (fe80::1%eth0) does not change the address
  if (isIP(s) !== 6) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const groups = [...headGroups, ...zeros, ...tailGroups].map((g) => parseInt(g, 16));
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function classifyIpv4(bytes: number[]): AddressKind {
  for (const range of IPV4_RANGES) if (inRange(bytes, range)) return range.kind as AddressKind;
  return 'public';
}

/** What an IP address is; throws for something that is not an IP address. */
export function classifyAddress(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return classifyIpv4(bare.split('.').map(Number));
  const bytes = ipv6Bytes(bare);
  if (!bytes) throw new Error(`not an IP address: ${address}`);
  for (const range of IPV6_RANGES) {
    if (!inRange(bytes, range)) continue;
    if (range.kind !== 'embedded-ipv4') return range.kind;
    // The IPv4 address inside decides (6to4 keeps it in bytes 2..5, the others in the last 4).
    return classifyIpv4(range.prefix === 16 ? bytes.slice(2, 6) : bytes.slice(12, 16));
  }
  return 'public';
}

/** Syntax rules every webhook URL follows, whatever the deployment allows. */
export function parseWebhookUrl(raw: string): URL {
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw new TargetRefusedError('INVALID_URL', `url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefusedError('INVALID_URL', 'url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefusedError('UNSUPPORTED_SCHEME', 'url must start with http:// or https://');
  }
  if (url.username || url.password) {
    // Credentials in a URL end up in logs; the signature authenticates us instead.
    throw new TargetRefusedError('CREDENTIALS_IN_URL', 'url must not contain a user name or password');
  }
  if (!url.hostname) throw new TargetRefusedError('INVALID_URL', 'url must name a host');
  return url;
}

/** The host of a parsed URL without IPv6 brackets. */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** The longest name DNS can carry (RFC 1035); getaddrinfo answers EINVAL, not "not found", past it. */
const MAX_DNS_NAME = 253;

export const systemResolver: Resolver = async (hostname) => {
  if (hostname.replace(/\.$/, '').length > MAX_DNS_NAME) {
    throw new TargetRefusedError('UNRESOLVABLE_HOST', `host ${hostname.slice(0, 64)}… is longer than DNS allows`);
  }
  try {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME') {
      throw new TargetRefusedError('UNRESOLVABLE_HOST', `host ${hostname} does not resolve`);
    }
    throw new ResolutionUnavailableError(`resolving ${hostname} failed (${code ?? 'unknown error'})`);
  }
};

export interface TargetCheckOptions {
  allowPrivateTargets: boolean;
  resolve?: Resolver;
}

/**
 * The addresses a webhook URL may be delivered to. Every address the host
 * resolves to must be public (unless private targets are allowed): a name
 * answering with one public and one private address is refused, since the
 * connection could otherwise be steered to the private one.
 */
export async function checkTarget(url: URL, options: TargetCheckOptions): Promise<ResolvedAddress[]> {
  const host = urlHost(url);
  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal === 6 ? 6 : 4 }]
    : await (options.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw new TargetRefusedError('UNRESOLVABLE_HOST', `host ${host} does not resolve`);
  if (!options.allowPrivateTargets) {
    for (const { address } of addresses) {
      const kind = classifyAddress(address);
      if (kind !== 'public') {
        throw new TargetRefusedError(
          'PRIVATE_TARGET',
          `url resolves to a ${kind} address (${address}); only public addresses can receive webhooks`,
        );
      }
    }
  }
  return addresses;
}
