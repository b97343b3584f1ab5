import type { Request } from 'express';

/**
 * User agents of crawlers and link unfurlers (search engines, chat and
 * social apps fetching a preview): followed, never counted as a click.
 * Names as they appear in their user agents, matched case-insensitively.
 */
const KNOWN_AGENTS = [
  'googlebot', 'google-inspectiontool', 'storebot-google', 'adsbot-google', 'mediapartners-google', 'apis-google', 'feedfetcher-google',
  'google-read-aloud', 'googleother', 'bingbot', 'bingpreview', 'msnbot', 'adidxbot', 'slurp', 'duckduckbot', 'duckassistbot', 'baiduspider',
  'yandex.com/bots', 'petalbot', 'applebot', 'amazonbot', 'bytespider', 'gptbot', 'chatgpt-user', 'oai-searchbot', 'claudebot', 'claude-web',
  'perplexitybot', 'ccbot', 'ahrefsbot', 'semrushbot', 'mj12bot', 'dotbot', 'rogerbot', 'screaming frog', 'facebookexternalhit',
  'facebookcatalog', 'facebot', 'meta-externalagent', 'twitterbot', 'linkedinbot', 'pinterestbot', 'redditbot', 'slackbot', 'slack-imgproxy',
  'discordbot', 'telegrambot', 'whatsapp', 'skypeuripreview', 'microsoftpreview', 'kakaotalk-scrap', 'vkshare', 'embedly', 'iframely',
  'quora link preview', 'outbrain', 'flipboardproxy', 'bitlybot', 'mastodon', 'cardyb', 'qwantify', 'ia_archiver', 'archive.org_bot',
  'w3c_validator', 'lighthouse', 'headlesschrome', 'phantomjs', 'python-requests', 'python-urllib', 'aiohttp', 'httpx', 'go-http-client',
  'okhttp', 'java/', 'curl/', 'wget/', 'libwww-perl', 'scrapy', 'node-fetch', 'axios/', 'undici',
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The named agents, and any whose name is a word "bot", "crawler" or
 * "spider" or ends in "bot" before a version ("AhrefsBot/7.0"): a phone
 * model such as "CUBOT_X19" is none of these.
 */
const CRAWLER = new RegExp(`${KNOWN_AGENTS.map(escape).join('|')}|\\b(?:bot|crawler|spider|crawl)\\b|[a-z]bot/`, 'i');

export type UncountedReason = 'HEAD' | 'PREFETCH' | 'NO_USER_AGENT' | 'CRAWLER';

/**
 * Why a visit of a hosted link is not a person clicking it, or undefined
 * when it is: a HEAD request (link checkers), a browser's speculative
 * prefetch (`Sec-Purpose`/`Purpose: prefetch`), no user agent at all, or a
 * known crawler or link unfurler.
 */
export function uncountedReason(req: Request): UncountedReason | undefined {
  if (req.method === 'HEAD') return 'HEAD';
  const purpose = `${req.header('sec-purpose') ?? ''} ${req.header('purpose') ?? ''} ${req.header('x-moz') ?? ''}`;
  if (/prefetch|prerender|preview/i.test(purpose)) return 'PREFETCH';
  const agent = req.header('user-agent')?.trim();
  if (!agent) return 'NO_USER_AGENT';
  if (CRAWLER.test(agent)) return 'CRAWLER';
  return undefined;
}
