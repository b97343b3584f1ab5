import { Button, Checkbox, Fieldset, Group, NumberInput, SegmentedControl, Select, Slider, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { FULFILLMENT_TYPES, MAX_LEVEL, type CampaignFormValues } from './campaign-request';
import { CURRENCIES } from './currencies';
import { NEW_RULE, RULE_KINDS, type RuleFormValues } from './reward-rule-form';

type Form = UseFormReturnType<CampaignFormValues>;

/**
 * What a rule pays, at `path` (`referrerReward`, `levels.0`): a fixed amount, or a percent of the sale with an optional
 * cap. Each field is labelled `<legend> amount`, `<legend> percent`, `<legend> cap`.
 */
function RuleTermsFields({ form, path, legend, rule }: { form: Form; path: string; legend: string; rule: RuleFormValues }) {
  const currency = (
    <Text size="xs" c="dimmed">
      {form.getValues().currency}
    </Text>
  );
  const money = { min: 0, max: 1_000_000_000, clampBehavior: 'none' as const, decimalScale: 2, leftSection: currency, leftSectionWidth: 44 };
  return (
    <Stack gap={6} style={{ flex: 1 }}>
      <SegmentedControl aria-label={`${legend} commission`} data={RULE_KINDS} {...form.getInputProps(`${path}.kind`)} />
      {rule.kind === 'FIXED' ? (
        <NumberInput label={`${legend} amount`} required {...money} {...form.getInputProps(`${path}.amount`)} />
      ) : (
        <Group grow align="flex-start" wrap="wrap">
          <NumberInput
            label={`${legend} percent`}
            description="Of the sale's amount, rounded to the currency's smallest unit"
            suffix=" %"
            min={0}
            max={100}
            clampBehavior="none"
            decimalScale={6}
            required
            {...form.getInputProps(`${path}.percent`)}
          />
          <NumberInput label={`${legend} cap`} description="The most it pays; empty: no cap" {...money} {...form.getInputProps(`${path}.maxAmount`)} />
        </Group>
      )}
    </Stack>
  );
}

function RewardFields({ form, path, legend }: { form: Form; path: 'referrerReward' | 'refereeReward'; legend: string }) {
  return (
    <Group grow align="flex-start" wrap="wrap">
      <RuleTermsFields form={form} path={path} legend={legend} rule={form.getValues()[path]} />
      <Select label={`${legend} fulfilment`} data={FULFILLMENT_TYPES} allowDeselect={false} {...form.getInputProps(`${path}.fulfillmentType`)} />
    </Group>
  );
}

/**
 * Every setting of a campaign: schedule, currency, rewards (fixed or a percent of the sale; double-sided, levels),
 * holding period and recurrence, landing URL, attribution, caps, fraud, code validity.
 */
export function CampaignForm({
  form,
  isNew,
  readOnly,
  submitting,
  onSubmit,
}: {
  form: UseFormReturnType<CampaignFormValues>;
  isNew: boolean;
  readOnly: boolean;
  submitting: boolean;
  onSubmit: (values: CampaignFormValues) => void;
}) {
  const values = form.getValues();
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate aria-label={isNew ? 'New campaign' : 'Campaign settings'}>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack maw={720}>
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput
            label="Landing URL"
            description="Where the campaign's hosted referral links send visitors, with the referral code added. Empty: the links answer 404."
            type="url"
            placeholder="https://shop.example.com/welcome"
            {...form.getInputProps('landingUrl')}
          />
          {isNew && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="start-as">
                Start as
              </Text>
              <SegmentedControl
                aria-labelledby="start-as"
                data={[
                  { value: 'ACTIVE', label: 'Active' },
                  { value: 'PAUSED', label: 'Paused' },
                ]}
                {...form.getInputProps('status')}
              />
            </Stack>
          )}
          <Fieldset legend="Schedule">
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                In your time zone. The campaign takes referrals and conversions only from its start until its end; empty: no bound on that side.
              </Text>
              <Group grow align="flex-start" wrap="wrap">
                <TextInput label="Starts" type="datetime-local" {...form.getInputProps('startsAt')} />
                <TextInput label="Ends" type="datetime-local" {...form.getInputProps('endsAt')} />
              </Group>
            </Stack>
          </Fieldset>
          <Fieldset legend="Rewards">
            <Stack>
              <Select
                label="Currency"
                description={isNew ? 'Of every amount of the campaign: its rewards, conversions and purchases.' : 'Fixed once the campaign exists.'}
                data={CURRENCIES}
                searchable
                allowDeselect={false}
                nothingFoundMessage="No such currency"
                disabled={!isNew}
                maw={320}
                {...form.getInputProps('currency')}
              />
              <RewardFields form={form} path="referrerReward" legend="Referrer reward" />
              <Switch
                label="Double-sided: the referee is rewarded too"
                {...form.getInputProps('doubleSided', { type: 'checkbox' })}
              />
              {values.doubleSided && <RewardFields form={form} path="refereeReward" legend="Referee reward" />}
            </Stack>
          </Fieldset>
          <Fieldset legend="Levels (multi-level referrals)">
            <Stack>
              <Text size="sm" c="dimmed">
                Level 1 is the direct referrer (the referrer reward). Each level below rewards the referrer one step further up.
              </Text>
              {values.levels.map((level, index) => (
                <Group key={form.key(`levels.${index}`)} align="flex-end" wrap="nowrap">
                  <RuleTermsFields form={form} path={`levels.${index}`} legend={`Level ${index + 2}`} rule={level} />
                  {index === values.levels.length - 1 && (
                    <Button variant="subtle" color="red" onClick={() => form.removeListItem('levels', index)} aria-label={`Remove level ${index + 2}`}>
                      Remove
                    </Button>
                  )}
                </Group>
              ))}
              {values.levels.length < MAX_LEVEL - 1 && (
                <Group>
                  <Button variant="light" onClick={() => form.insertListItem('levels', { ...NEW_RULE, amount: 0 })}>
                    Add level {values.levels.length + 2}
                  </Button>
                </Group>
              )}
            </Stack>
          </Fieldset>
          <Fieldset legend="Holding and recurrence">
            <Group grow align="flex-start" wrap="wrap">
              <NumberInput
                label="Holding period (days)"
                description="A clean conversion's rewards wait this long before they can be paid (0: at once)."
                min={0}
                max={365}
                clampBehavior="none"
                allowDecimal={false}
                required
                {...form.getInputProps('holdDays')}
              />
              <NumberInput
                label="Recurring months"
                description="The referee's later purchases earn again for this many months. Empty: only the first conversion earns."
                min={1}
                max={120}
                clampBehavior="none"
                allowDecimal={false}
                {...form.getInputProps('recurringMonths')}
              />
            </Group>
          </Fieldset>
          <Fieldset legend="Attribution and limits">
            <Stack>
              <NumberInput
                label="Attribution window (days)"
                description="A conversion counts when it comes this many days at most after the referee first used the code."
                min={1}
                max={3650}
                clampBehavior="none"
                allowDecimal={false}
                required
                {...form.getInputProps('attributionWindowDays')}
              />
              <Checkbox label="Cap the rewards of each referrer" {...form.getInputProps('capRewards', { type: 'checkbox' })} />
              {values.capRewards && (
                <NumberInput
                  label="Most rewards per referrer"
                  min={1}
                  max={2_147_483_647}
                  clampBehavior="none"
                  allowDecimal={false}
                  {...form.getInputProps('maxRewardsPerReferrer')}
                />
              )}
              <NumberInput
                label="Reward code validity (days)"
                description="How long a claimed discount or coupon code stays valid."
                min={1}
                max={3650}
                clampBehavior="none"
                allowDecimal={false}
                required
                {...form.getInputProps('rewardCodeValidityDays')}
              />
            </Stack>
          </Fieldset>
          <Fieldset legend="Fraud">
            <Stack gap={4}>
              <Text size="sm" id="threshold-label">
                Flag threshold: {values.flagThreshold} (a referral or conversion scoring this or more is held for review)
              </Text>
              <Slider min={0} max={100} step={1} aria-labelledby="threshold-label" thumbLabel="Flag threshold" {...form.getInputProps('flagThreshold')} />
              {form.errors.flagThreshold && (
                <Text size="sm" c="red" role="alert">
                  {form.errors.flagThreshold}
                </Text>
              )}
            </Stack>
          </Fieldset>
          {!readOnly && (
            <Group>
              <Button type="submit" loading={submitting}>
                {isNew ? 'Create campaign' : 'Save changes'}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
