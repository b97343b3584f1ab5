import type { MouseEvent } from 'react';
import classes from './skip-link.module.css';

/** The id of the element that holds each page's content (the app shell's main). */
export const CONTENT_ID = 'content';

/** Props of that element: the skip link's target, focusable by script only (not a stop of its own). */
export const contentTarget = { id: CONTENT_ID, tabIndex: -1, className: classes.target } as const;

/**
 * The first thing Tab reaches on every page: "Skip to content", past the
 * header and the fifteen links of the navigation. Following it moves the
 * focus to the page itself (by script: a `#content` navigation would change
 * the URL the router keeps), so the next Tab is the page's first control.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const content = document.getElementById(CONTENT_ID);
    content?.focus();
    content?.scrollIntoView();
  };
  return (
    <a href={`#${CONTENT_ID}`} className={classes.link} onClick={skip}>
      Skip to content
    </a>
  );
}
