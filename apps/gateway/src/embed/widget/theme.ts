import { widgetStrings, type WidgetStrings } from './strings';

/** How the embedding page wants the widget to look, from the widget page's URL (the loader puts its data- attributes there). */
export interface WidgetOptions {
  token: string;
  lang: string;
  strings: WidgetStrings;
  colors: { primary?: string; background?: string; text?: string };
  radius?: number;
  logo?: string;
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A colour option: #rgb or #rrggbb only, so nothing but a colour reaches the style. */
const color = (value: string | null) => (value && COLOR.test(value) ? value : undefined);

/** A logo: an https image, or one of this origin (the page's CSP allows no other). */
function logo(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, location.origin);
    return url.protocol === 'https:' || url.origin === location.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function parseJson(value: string | null): unknown {
  if (!value || value.length > 10_000) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export function readOptions(search: string): WidgetOptions {
  const params = new URLSearchParams(search);
  const lang = (params.get('lang') ?? navigator.language ?? 'en').slice(0, 2).toLowerCase();
  const radius = Number(params.get('radius'));
  return {
    token: params.get('token') ?? '',
    lang,
    strings: widgetStrings(lang, parseJson(params.get('strings'))),
    colors: { primary: color(params.get('primary')), background: color(params.get('background')), text: color(params.get('text')) },
    radius: params.has('radius') && Number.isInteger(radius) && radius >= 0 && radius <= 24 ? radius : undefined,
    logo: logo(params.get('logo')),
  };
}

/** Relative luminance (WCAG) of a #rgb or #rrggbb colour. */
function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Applies the colours as CSS custom properties (through the CSSOM: the page's CSP allows no inline style), with a readable text colour on the primary one. */
export function applyTheme(root: HTMLElement, options: WidgetOptions): void {
  const { primary, background, text } = options.colors;
  if (primary) {
    root.style.setProperty('--ris-primary', primary);
    root.style.setProperty('--ris-on-primary', luminance(primary) > 0.4 ? '#111111' : '#ffffff');
  }
  if (background) root.style.setProperty('--ris-background', background);
  if (text) root.style.setProperty('--ris-text', text);
  if (options.radius !== undefined) root.style.setProperty('--ris-radius', `${options.radius}px`);
}
