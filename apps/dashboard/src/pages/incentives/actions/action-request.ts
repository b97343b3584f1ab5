import type { ActionType, CreateIncentiveAction, IncentiveAction, UpdateIncentiveAction } from '../../../api/types';
import { whole } from '../cost-fields';

export const ACTION_TYPES: { value: ActionType; label: string; description: string }[] = [
  { value: 'STANDARD', label: 'Standard', description: 'posted by your backend as events' },
  { value: 'REFERRAL_CODE_GENERATE', label: 'Referral created', description: 'fires for the referrer when one of their referrals is created' },
  { value: 'REFERRAL_CLICK', label: 'Referral clicked', description: 'fires for the referrer when their referral is clicked' },
  { value: 'REFERRAL_REFEREE_ACTION', label: 'Referee converted', description: 'fires for the referrer when their referee converts (level 1)' },
];

export function actionTypeLabel(type: ActionType): string {
  return ACTION_TYPES.find((t) => t.value === type)?.label ?? type;
}

export interface ActionFormValues {
  key: string;
  name: string;
  type: ActionType;
  coins: number | string;
  xp: number | string;
  tokens: number | string;
  cooldown: number | string;
  /** Empty: unlimited. */
  maxRepeats: number | string;
  enabled: boolean;
  description: string;
  /** Days its coins and tokens stay pending (0 to 365); 0: available at once. */
  pendingDays: number | string;
}

/** The API's bound of an action's pending days (apps/gateway/src/routes/incentive-actions.ts). */
export const MAX_PENDING_DAYS = 365;

export const NEW_ACTION: ActionFormValues = { key: '', name: '', type: 'STANDARD', coins: 0, xp: 0, tokens: 0, cooldown: 0, maxRepeats: '', enabled: true, description: '', pendingDays: 0 };

export function actionFormValues(action: IncentiveAction): ActionFormValues {
  return {
    key: action.key,
    name: action.name,
    type: action.type,
    coins: action.coins,
    xp: action.xp,
    tokens: action.tokens,
    cooldown: action.cooldown,
    maxRepeats: action.maxRepeats ?? '',
    enabled: action.enabled,
    description: action.description ?? '',
    pendingDays: action.pendingDays,
  };
}

function editable(values: ActionFormValues) {
  return {
    name: values.name.trim(),
    type: values.type,
    coins: whole(values.coins),
    xp: whole(values.xp),
    tokens: whole(values.tokens),
    cooldown: whole(values.cooldown),
    maxRepeats: values.maxRepeats === '' ? null : whole(values.maxRepeats),
    enabled: values.enabled,
    pendingDays: whole(values.pendingDays),
  };
}

/** The form rule of the pending days: a whole number from 0 to 365 (empty: 0). */
export function pendingDaysRule(value: number | string): string | null {
  const n = whole(value);
  return Number.isInteger(n) && n >= 0 && n <= MAX_PENDING_DAYS ? null : `A whole number of days from 0 to ${MAX_PENDING_DAYS}`;
}

/** An action's pending days in words (`pending 7 days`), or null when its coins and tokens are available at once. */
export function pendingText(pendingDays: number): string | null {
  return pendingDays > 0 ? `pending ${pendingDays} ${pendingDays === 1 ? 'day' : 'days'}` : null;
}

/** POST /incentives/actions: an empty description is left out. */
export function createActionRequest(values: ActionFormValues): CreateIncentiveAction {
  const description = values.description.trim();
  return { key: values.key.trim(), ...editable(values), ...(description ? { description } : {}) };
}

/** PATCH /incentives/actions/{key}: every field the form edits (an emptied max repeats removes the cap). */
export function updateActionRequest(values: ActionFormValues): UpdateIncentiveAction {
  return { ...editable(values), description: values.description.trim() };
}
