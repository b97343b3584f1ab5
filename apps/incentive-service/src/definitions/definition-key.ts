import { characterCount } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';

/**
 * Keys of actions, badges and milestones: letters, digits, "_" and "-".
 * They become field names in balance documents (actions.<key>), so no "."
 * or "$".
 */
export const DEFINITION_KEY = /^[A-Za-z0-9_-]{1,100}$/;

export function checkKey(value: string, field = 'key'): string {
  if (!DEFINITION_KEY.test(value)) {
    throw invalid(`${field} must be 1 to 100 letters, digits, "_" or "-"`, { field });
  }
  return value;
}

export function checkName(value: string, field = 'name'): string {
  const name = value.trim();
  if (!name || characterCount(name) > 200) throw invalid(`${field} must be 1 to 200 characters`, { field });
  return name;
}

/** A user id as callers send it: non-empty, at most 200 characters. */
export function checkUserId(value: string, field = 'userId'): string {
  const userId = value.trim();
  if (!userId || characterCount(userId) > 200) throw invalid(`${field} must be 1 to 200 characters`, { field });
  return userId;
}

export function checkWholeNumber(value: number, field: string, max = 2 ** 31 - 1): number {
  if (!Number.isInteger(value) || value < 0 || value > max) throw invalid(`${field} must be a whole number from 0 to ${max}`, { field });
  return value;
}
