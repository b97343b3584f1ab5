import { el } from './dom';
import { applyTheme, readOptions, type WidgetOptions } from './theme';
import { dateText, rewardLine, type WidgetReward } from './reward-line';
import type { WidgetStrings } from './strings';

/** GET /embed/v1/referral (ReferralWidgetView in the OpenAPI document). */
interface WidgetView {
  user: { id: string };
  campaign: { id: string; name: string; status: string };
  referral: { code: string; link: string; qrCodeSvg: string; createdAt: string };
  stats: { clicks: number; friendsJoined: number; friendsConverted: number };
  friends: Array<{ label: string; status: 'JOINED' | 'CONVERTED'; joinedAt: string | null; convertedAt: string | null }>;
  rewards: WidgetReward[];
}

const root = document.getElementById('ris-widget') as HTMLElement;
const options = readOptions(location.search);
document.documentElement.lang = options.lang;
applyTheme(document.documentElement, options);

/** Tells the embedding page (loader.js) how tall the widget is, so its frame needs no scroll bar. Only a number leaves the frame. */
function reportHeight(): void {
  if (window.parent === window) return;
  window.parent.postMessage({ type: 'ris-widget:height', height: Math.ceil(document.documentElement.getBoundingClientRect().height) }, '*');
}
new ResizeObserver(reportHeight).observe(document.documentElement);

async function copyText(text: string, input?: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // A frame without clipboard-write permission: the old way, from a selected field.
    if (!input) return false;
    input.select();
    return document.execCommand('copy');
  }
}

function header(options: WidgetOptions, s: WidgetStrings, view?: WidgetView): HTMLElement {
  return el(
    'header',
    { class: 'ris-header' },
    options.logo ? el('img', { class: 'ris-logo', src: options.logo, alt: '' }) : null,
    el('div', {}, el('h1', { id: 'ris-title' }, s.title), view ? el('p', { class: 'ris-muted' }, view.campaign.name) : null),
  );
}

function linkSection(view: WidgetView, s: WidgetStrings, announce: (text: string) => void): HTMLElement {
  const input = el('input', { id: 'ris-link', class: 'ris-link', type: 'text', readonly: '', value: view.referral.link });
  input.addEventListener('focus', () => input.select());
  const copy = el('button', { type: 'button', class: 'ris-button' }, s.copy);
  copy.addEventListener('click', async () => {
    if (await copyText(view.referral.link, input)) announce(s.copied);
  });
  const actions = el('div', { class: 'ris-actions' }, copy);
  if (typeof navigator.share === 'function') {
    const share = el('button', { type: 'button', class: 'ris-button ris-secondary' }, s.share);
    share.addEventListener('click', () => {
      navigator.share({ title: s.title, text: s.shareText, url: view.referral.link }).catch(() => undefined);
    });
    actions.append(share);
  }
  const mail = `mailto:?subject=${encodeURIComponent(s.title)}&body=${encodeURIComponent(`${s.shareText} ${view.referral.link}`)}`;
  actions.append(el('a', { class: 'ris-button ris-secondary', href: mail, target: '_top' }, s.email));
  return el(
    'section',
    { class: 'ris-card ris-share', 'aria-labelledby': 'ris-link-label' },
    el(
      'div',
      { class: 'ris-share-main' },
      el('label', { id: 'ris-link-label', for: 'ris-link', class: 'ris-label' }, s.yourLink),
      input,
      actions,
    ),
    el('img', { class: 'ris-qr', src: view.referral.qrCodeSvg, alt: s.qrAlt, width: '120', height: '120' }),
  );
}

function statsSection(view: WidgetView, s: WidgetStrings, lang: string): HTMLElement {
  const number = new Intl.NumberFormat(lang);
  const stat = (label: string, value: number) => el('div', { class: 'ris-stat' }, el('dt', {}, label), el('dd', {}, number.format(value)));
  return el(
    'dl',
    { class: 'ris-stats' },
    stat(s.clicks, view.stats.clicks),
    stat(s.joined, view.stats.friendsJoined),
    stat(s.converted, view.stats.friendsConverted),
  );
}

function friendsSection(view: WidgetView, s: WidgetStrings, lang: string): HTMLElement {
  const list = view.friends.length
    ? el(
        'ul',
        { class: 'ris-list' },
        ...view.friends.map((f) =>
          el(
            'li',
            { class: 'ris-item' },
            el('span', { class: 'ris-friend' }, f.label),
            el('span', { class: `ris-badge ris-${f.status.toLowerCase()}` }, f.status === 'CONVERTED' ? s.friendConverted : s.friendJoined),
            el('span', { class: 'ris-muted' }, dateText(f.convertedAt ?? f.joinedAt, lang)),
          ),
        ),
      )
    : el('p', { class: 'ris-muted' }, s.noFriends);
  return el('section', { class: 'ris-card', 'aria-labelledby': 'ris-friends' }, el('h2', { id: 'ris-friends' }, s.friends), list);
}

function rewardsSection(view: WidgetView, s: WidgetStrings, lang: string, announce: (text: string) => void): HTMLElement {
  const list = view.rewards.length
    ? el(
        'ul',
        { class: 'ris-list' },
        ...view.rewards.map((r) => {
          const line = rewardLine(r, s, lang);
          const item = el(
            'li',
            { class: 'ris-item ris-reward' },
            // Struck through once taken back: the status beside it says so in words.
            el('span', { class: line.reversed ? 'ris-amount ris-struck' : 'ris-amount' }, line.amount),
            el('span', { class: `ris-badge ris-${line.tone}` }, line.status),
            line.note ? el('span', { class: 'ris-muted' }, line.note) : null,
          );
          // A reversed reward's code is of no more use.
          if (r.discountCode && !line.reversed) {
            const copy = el('button', { type: 'button', class: 'ris-link-button', 'aria-label': `${s.copyCode} ${r.discountCode}` }, s.copyCode);
            copy.addEventListener('click', async () => {
              if (await copyText(r.discountCode!)) announce(s.codeCopied);
            });
            item.append(
              el(
                'span',
                { class: 'ris-code-line' },
                `${s.code} `,
                el('code', { class: 'ris-code' }, r.discountCode),
                ' ',
                copy,
                r.expiresAt ? el('span', { class: 'ris-muted' }, ` · ${s.expires} ${dateText(r.expiresAt, lang)}`) : null,
              ),
            );
          }
          return item;
        }),
      )
    : el('p', { class: 'ris-muted' }, s.noRewards);
  return el('section', { class: 'ris-card', 'aria-labelledby': 'ris-rewards' }, el('h2', { id: 'ris-rewards' }, s.rewards), list);
}

function render(view: WidgetView): void {
  const s = options.strings;
  const status = el('p', { class: 'ris-visually-hidden', role: 'status' });
  const announce = (text: string) => {
    status.textContent = '';
    // A new node each time, so a screen reader announces the same text twice too.
    setTimeout(() => (status.textContent = text), 50);
  };
  root.replaceChildren(
    header(options, s, view),
    el('p', { class: 'ris-intro' }, s.intro),
    linkSection(view, s, announce),
    statsSection(view, s, options.lang),
    friendsSection(view, s, options.lang),
    rewardsSection(view, s, options.lang, announce),
    status,
  );
  root.setAttribute('aria-labelledby', 'ris-title');
}

function fail(message: string): void {
  root.replaceChildren(header(options, options.strings), el('p', { class: 'ris-error', role: 'alert' }, message));
}

async function load(): Promise<void> {
  try {
    const res = await fetch('/embed/v1/referral', { headers: { Authorization: `Bearer ${options.token}` }, cache: 'no-store' });
    if (res.ok) {
      render((await res.json()) as WidgetView);
    } else {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
      fail(body?.error?.code === 'EMBED_TOKEN_EXPIRED' ? options.strings.expired : options.strings.error);
    }
  } catch {
    fail(options.strings.error);
  } finally {
    root.setAttribute('aria-busy', 'false');
    reportHeight();
  }
}

root.replaceChildren(el('p', { class: 'ris-muted' }, options.strings.loading));
void load();
