/**
 * The script-tag loader of the referral widget:
 *
 *   <script src="https://<gateway>/embed/loader.js" data-token="et1.…" async></script>
 *
 * puts the widget's frame where the tag is (or into the element that
 * `data-target` names by id), passing its data- options (lang, primary,
 * background, text, radius, logo, strings) to the widget page, and sizes the
 * frame to its content. Nothing of the embedding page reaches the widget
 * but those options.
 */
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return;
  const data = script.dataset;
  const origin = new URL(script.src).origin;
  const page = new URL('/embed/referrals', origin);
  page.searchParams.set('token', data.token ?? '');
  for (const name of ['lang', 'primary', 'background', 'text', 'radius', 'logo', 'strings']) {
    const value = data[name];
    if (value) page.searchParams.set(name, value);
  }
  const frame = document.createElement('iframe');
  frame.src = page.href;
  frame.title = data.title ?? 'Referral program';
  // Copy and share buttons inside the frame need these.
  frame.allow = 'clipboard-write; web-share';
  frame.loading = 'lazy';
  frame.style.border = '0';
  frame.style.width = '100%';
  frame.style.minHeight = '320px';
  frame.style.colorScheme = 'normal';
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as { type?: unknown; height?: unknown } | null;
    if (event.source !== frame.contentWindow || event.origin !== origin || message?.type !== 'ris-widget:height') return;
    if (typeof message.height !== 'number' || message.height <= 0 || message.height >= 10_000) return;
    // The widget's own height from now on (the minimum only held the place while it loaded).
    frame.style.minHeight = '0';
    frame.style.height = `${message.height}px`;
  });
  const target = data.target ? document.getElementById(data.target) : null;
  if (target) target.append(frame);
  else script.after(frame);
})();
