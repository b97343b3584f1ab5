// jsdom lacks what Mantine and Recharts measure the page with; these stand-ins
// let the real components render (nothing of the component library is mocked).
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy…/waitFor give up after 15 s, not 1 s: under `npm test` these run next
// to whole stacks and the fuzzer on two cores, where a lazily loaded page can
// take seconds to arrive (seen: the overview past 1 s, an action's drawer past
// 5 s). A test that passes is no slower.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStandIn {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStandIn;
Element.prototype.scrollIntoView = () => {};
window.HTMLElement.prototype.scrollTo = () => {};
Object.defineProperty(window, 'getComputedStyle', { value: window.getComputedStyle, writable: true });
// Mantine's autosizing textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() } });
}
