import { characterCount } from '@ris/rpc';
import { z } from './zod';

// What a string of the public API may hold, written once so that the rule
// that validates a request is the rule the document states (a `pattern`
// plus minLength/maxLength). Lengths count characters (Unicode code
// points), as JSON Schema does, not UTF-16 units. The patterns name their
// characters explicitly (no \s, \d or \p{…}), so JavaScript, the fuzzers'
// Python and JSON Schema validators all read them alike.
//
// - Control characters (U+0000–U+001F, U+007F–U+009F) are refused in ids,
//   keys and one-line texts: NUL cannot be stored (PostgreSQL under FerretDB
//   refuses it) and the others have no meaning in an id or a label. Free
//   text (descriptions, notes) keeps tab, line feed and carriage return.
// - Unpaired UTF-16 surrogates are refused in every JSON body before
//   validation (json-body.ts): they are not Unicode and cannot be stored.

const CONTROL = '\\x00-\\x1f\\x7f-\\x9f';
/** Control characters other than tab, line feed and carriage return. */
const CONTROL_BUT_LINE_BREAKS = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f';
/** JavaScript's white space outside the control range: what trim() removes from a label. */
const SPACE = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

const lengthRule = (min: number, max: number) => (value: string) => {
  const count = characterCount(value);
  return count >= min && count <= max;
};

const lengthText = (min: number, max: number) =>
  min === max ? `must be ${max} characters` : min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`;

/**
 * An identifier or code: 1 to `max` characters, no control characters and
 * no white space at either end (inner spaces are kept: caller-chosen user
 * ids may hold them). Never trimmed: an id is compared as sent.
 */
export function identifierPattern(max: number): string {
  return `^[^${SPACE}${CONTROL}](?:[^${CONTROL}]{0,${max - 2}}[^${SPACE}${CONTROL}])?$`;
}

export const identifier = (description: string, max = 128) =>
  z
    .string()
    .regex(new RegExp(identifierPattern(max), 'u'), `must be 1 to ${max} characters, without control characters or white space at either end`)
    .openapi({ description, minLength: 1, maxLength: max, pattern: identifierPattern(max) });

/**
 * A one-line label (a name, a title): up to `max` characters without
 * control characters and not blank; surrounding white space is trimmed
 * before it is stored.
 */
export function label(max = 200) {
  const pattern = `^[${SPACE}]*[^${SPACE}${CONTROL}][^${CONTROL}]*$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must not be blank or hold control characters')
    .refine(lengthRule(1, max), lengthText(1, max))
    .trim()
    .openapi({ minLength: 1, maxLength: max, pattern });
}

/** A one-line value that may be empty (user agents, e-mail addresses, device ids): no control characters. */
export function lineText(max: number) {
  const pattern = `^[^${CONTROL}]*$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must not hold control characters')
    .refine(lengthRule(0, max), lengthText(0, max))
    .openapi({ maxLength: max, pattern });
}

/** Free text (descriptions, notes): up to `max` characters; tab and line breaks allowed, other control characters not. */
export function freeText(max: number) {
  const pattern = `^[^${CONTROL_BUT_LINE_BREAKS}]*$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must not hold control characters other than tab and line breaks')
    .refine(lengthRule(0, max), lengthText(0, max))
    .openapi({ maxLength: max, pattern });
}

/**
 * Free text that must say something (a reason): 1 to `max` characters, not
 * only white space; tab and line breaks allowed, other control characters
 * not. Kept as sent.
 */
export function requiredText(max: number) {
  const pattern = `^[^${CONTROL_BUT_LINE_BREAKS}]*[^${SPACE}${CONTROL}][^${CONTROL_BUT_LINE_BREAKS}]*$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must not be blank or hold control characters other than tab and line breaks')
    .refine(lengthRule(1, max), lengthText(1, max))
    .openapi({ minLength: 1, maxLength: max, pattern });
}

// An http(s) URL that is an RFC 3986 URI and that the WHATWG URL parser
// always accepts: a host name whose last label starts with a letter (so it
// is never read as an IPv4 number) or a dotted IPv4 address, an optional
// port up to 65535, then a path, query and fragment of RFC 3986 characters
// (anything else percent-encoded). No user name or password.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_NAME = `(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
const URI_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";
export const HTTP_URL_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://(?:${HOST_NAME}|${IPV4})${PORT}(?:/${URI_CHAR}*)?(?:\\?${URI_CHAR}*)?(?:#${URI_CHAR}*)?$`;

/** An absolute http or https URL of at most `max` characters (HTTP_URL_PATTERN). */
export function httpUrl(max: number) {
  return z
    .string()
    .regex(new RegExp(HTTP_URL_PATTERN, 'u'), 'must be an http:// or https:// URL with a host name or IPv4 address, without credentials')
    .refine(lengthRule(1, max), lengthText(1, max))
    .openapi({ format: 'uri', minLength: 1, maxLength: max, pattern: HTTP_URL_PATTERN });
}

export const ORIGIN_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://(?:${HOST_NAME}|${IPV4})${PORT}$`;

/** A web origin (scheme, host and optional port, nothing after it), lower-cased as browsers send it in `Origin`. */
export function webOrigin() {
  return z
    .string()
    .regex(new RegExp(ORIGIN_PATTERN, 'u'), 'must be an origin such as https://shop.example.com (scheme, host, optional port; no path)')
    .refine(lengthRule(1, 300), lengthText(1, 300))
    .transform((value) => new URL(value).origin)
    .openapi({ minLength: 1, maxLength: 300, pattern: ORIGIN_PATTERN, example: 'https://shop.example.com' });
}

/**
 * An e-mail address as an operator's sign-in name: one `@` with something
 * on each side, no spaces or control characters, at most 254 characters
 * (RFC 5321's path limit). Lower-cased after the check: addresses are
 * compared case-insensitively (`Ann@Example.com` signs in as ann@example.com).
 * Whether it receives mail is not checked: the console sends none.
 */
export function emailAddress() {
  const pattern = `^[^${CONTROL} @]+@[^${CONTROL} @]+$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must be an e-mail address (name@domain, no spaces)')
    .refine(lengthRule(3, 254), lengthText(3, 254))
    .transform((value) => value.toLowerCase())
    // No `format: email`: RFC 5322's grammar is not this rule (it takes internationalized addresses, refuses quoted ones).
    .openapi({ minLength: 3, maxLength: 254, pattern, example: 'ann@example.com' });
}

/**
 * A password as sent: `min` to `max` characters, no control characters.
 * Sign-in takes any length from 1 (it does not tell the rules); a new
 * password has at least 12 characters.
 */
export function passwordText(min: number, max = 200) {
  const pattern = `^[^${CONTROL}]*$`;
  return z
    .string()
    .regex(new RegExp(pattern, 'u'), 'must not hold control characters')
    .refine(lengthRule(min, max), lengthText(min, max))
    .openapi({ format: 'password', minLength: min, maxLength: max, pattern });
}
