/**
 * The form rule for a new action's, badge's or milestone's key, as the API
 * checks it (letters, digits, `_` or `-`, 1 to 100); an existing key never changes.
 */
export function definitionKeyRule(isNew: boolean) {
  return (value: string) => (!isNew || /^[A-Za-z0-9_-]{1,100}$/.test(value.trim()) ? null : 'Letters, digits, _ or - (up to 100)');
}

/** The form rule of a required name. */
export function requiredName(what: string) {
  return (value: string) => (value.trim() ? null : `Give the ${what} a name`);
}
