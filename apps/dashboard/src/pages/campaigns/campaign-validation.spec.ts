import { useForm } from '@mantine/form';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formFieldOf, NEW_CAMPAIGN, type CampaignFormValues } from './campaign-request';
import { campaignValidation } from './campaign-validation';
import { NEW_RULE, type RuleFormValues } from './reward-rule-form';

type Changes = Omit<Partial<CampaignFormValues>, 'referrerReward' | 'refereeReward'> & {
  referrerReward?: Partial<RuleFormValues>;
  refereeReward?: Partial<RuleFormValues>;
};

/** The errors the campaign form shows for these values, by field (none: {}). */
function errorsOf(changes: Changes): Record<string, unknown> {
  const values: CampaignFormValues = {
    ...NEW_CAMPAIGN,
    name: 'Launch',
    ...changes,
    referrerReward: { ...NEW_CAMPAIGN.referrerReward, ...changes.referrerReward },
    refereeReward: { ...NEW_CAMPAIGN.refereeReward, ...changes.refereeReward },
  };
  const { result } = renderHook(() => useForm<CampaignFormValues>({ initialValues: values, validate: campaignValidation }));
  let errors: Record<string, unknown> = {};
  act(() => {
    errors = result.current.validate().errors;
  });
  return errors;
}

const percent = (p: number | string, maxAmount: number | string = ''): Partial<RuleFormValues> => ({ kind: 'PERCENT', percent: p, maxAmount });

describe('the campaign form refuses what the API would refuse, on the field', () => {
  it('takes a new campaign as it starts', () => {
    expect(errorsOf({})).toEqual({});
  });

  it('refuses a negative, missing or too large fixed amount, and takes 0 and decimals', () => {
    expect(errorsOf({ referrerReward: { amount: -5 } })).toEqual({ 'referrerReward.amount': 'Must not be negative' });
    expect(errorsOf({ referrerReward: { amount: '' } })).toEqual({ 'referrerReward.amount': 'Required' });
    expect(errorsOf({ referrerReward: { amount: 1_000_000_001 } })).toEqual({ 'referrerReward.amount': 'Must be at most 1,000,000,000' });
    expect(errorsOf({ referrerReward: { amount: 0 } })).toEqual({});
    expect(errorsOf({ referrerReward: { amount: '12.34' } })).toEqual({});
  });

  it('takes a percent above 0 and at most 100, with a cap above 0 or none', () => {
    expect(errorsOf({ referrerReward: percent(0) })).toEqual({ 'referrerReward.percent': 'Must be more than 0' });
    expect(errorsOf({ referrerReward: percent(-1) })).toEqual({ 'referrerReward.percent': 'Must be more than 0' });
    expect(errorsOf({ referrerReward: percent(100.5) })).toEqual({ 'referrerReward.percent': 'Must be at most 100' });
    expect(errorsOf({ referrerReward: percent('') })).toEqual({ 'referrerReward.percent': 'Required' });
    expect(errorsOf({ referrerReward: percent(100) })).toEqual({});
    expect(errorsOf({ referrerReward: percent(0.0001, 50) })).toEqual({});
    expect(errorsOf({ referrerReward: percent(10, 0) })).toEqual({ 'referrerReward.maxAmount': 'Must be more than 0 (empty: no cap)' });
    expect(errorsOf({ referrerReward: percent(10, -3) })).toEqual({ 'referrerReward.maxAmount': 'Must be more than 0 (empty: no cap)' });
  });

  it("checks only the fields of a rule's kind, and a referee reward only when double-sided", () => {
    // A negative amount left in a rule switched to a percent is not sent, so not refused.
    expect(errorsOf({ referrerReward: { ...percent(10), amount: -5 } })).toEqual({});
    expect(errorsOf({ refereeReward: { amount: -1 } })).toEqual({});
    expect(errorsOf({ doubleSided: true, refereeReward: { amount: -1 } })).toEqual({ 'refereeReward.amount': 'Must not be negative' });
    expect(errorsOf({ doubleSided: true, refereeReward: percent(101) })).toEqual({ 'refereeReward.percent': 'Must be at most 100' });
  });

  it("checks each level's rule", () => {
    const levels: RuleFormValues[] = [
      { ...NEW_RULE, amount: 2 },
      { ...NEW_RULE, kind: 'PERCENT', percent: 150 },
      { ...NEW_RULE, kind: 'FIXED', amount: -0.01 },
    ];
    expect(errorsOf({ levels })).toEqual({ 'levels.1.percent': 'Must be at most 100', 'levels.2.amount': 'Must not be negative' });
  });

  it('takes a holding period of 0 to 365 whole days', () => {
    expect(errorsOf({ holdDays: 0 })).toEqual({});
    expect(errorsOf({ holdDays: 365 })).toEqual({});
    expect(errorsOf({ holdDays: 366 })).toEqual({ holdDays: 'Must be at most 365' });
    expect(errorsOf({ holdDays: -1 })).toEqual({ holdDays: 'Must be at least 0' });
    expect(errorsOf({ holdDays: 1.5 })).toEqual({ holdDays: 'Must be a whole number' });
    expect(errorsOf({ holdDays: '' })).toEqual({ holdDays: 'Required' });
  });

  it('takes recurring months of 1 to 120, or none (only the first conversion earns)', () => {
    expect(errorsOf({ recurringMonths: '' })).toEqual({});
    expect(errorsOf({ recurringMonths: 1 })).toEqual({});
    expect(errorsOf({ recurringMonths: 120 })).toEqual({});
    expect(errorsOf({ recurringMonths: 0 })).toEqual({ recurringMonths: 'Must be at least 1' });
    expect(errorsOf({ recurringMonths: 121 })).toEqual({ recurringMonths: 'Must be at most 120' });
  });

  it('takes an ISO 4217 currency only', () => {
    expect(errorsOf({ currency: 'EUR' })).toEqual({});
    expect(errorsOf({ currency: 'JPY' })).toEqual({});
    expect(errorsOf({ currency: 'EURO' })).toEqual({ currency: 'Pick a currency' });
    expect(errorsOf({ currency: '' })).toEqual({ currency: 'Pick a currency' });
  });
});

describe("the API's refusals land on a field the form shows", () => {
  const values: CampaignFormValues = {
    ...NEW_CAMPAIGN,
    referrerReward: { ...NEW_CAMPAIGN.referrerReward, kind: 'PERCENT' },
    levels: [{ ...NEW_RULE }, { ...NEW_RULE, kind: 'PERCENT' }],
  };

  it('keeps a field the form has as it is', () => {
    expect(formFieldOf('referrerReward.percent', values)).toBe('referrerReward.percent');
    expect(formFieldOf('referrerReward.maxAmount', values)).toBe('referrerReward.maxAmount');
    expect(formFieldOf('levels.0.amount', values)).toBe('levels.0.amount');
    expect(formFieldOf('holdDays', values)).toBe('holdDays');
    expect(formFieldOf('recurringMonths', values)).toBe('recurringMonths');
    expect(formFieldOf('currency', values)).toBe('currency');
    expect(formFieldOf('referrerReward.fulfillmentType', values)).toBe('referrerReward.fulfillmentType');
    expect(formFieldOf('fraud.flagThreshold', values)).toBe('flagThreshold');
  });

  it("puts a rule's own error, or one on a term its kind hides, on its kind's field", () => {
    expect(formFieldOf('referrerReward', values)).toBe('referrerReward.percent');
    expect(formFieldOf('referrerReward.amount', values)).toBe('referrerReward.percent');
    expect(formFieldOf('levels.1', values)).toBe('levels.1.percent');
    expect(formFieldOf('levels.0.percent', values)).toBe('levels.0.amount');
    expect(formFieldOf('levels.0.maxAmount', values)).toBe('levels.0.amount');
    expect(formFieldOf('refereeReward', values)).toBe('refereeReward.amount');
  });
});
