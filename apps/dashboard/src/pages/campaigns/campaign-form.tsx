import { Button, Checkbox, Fieldset, Group, NumberInput, SegmentedControl, Select, Slider, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { FULFILLMENT_TYPES, MAX_LEVEL, type CampaignFormValues } from './campaign-request';

function RewardFields({ form, path, legend }: { form: UseFormReturnType<CampaignFormValues>; path: 'referrerReward' | 'refereeReward'; legend: string }) {
  return (
    <Group grow align="flex-start" wrap="wrap">
      <NumberInput label={`${legend} amount`} min={0} max={1_000_000_000} decimalScale={2} required {...form.getInputProps(`${path}.amount`)} />
      <Select label={`${legend} fulfilment`} data={FULFILLMENT_TYPES} allowDeselect={false} {...form.getInputProps(`${path}.fulfillmentType`)} />
    </Group>
  );
}

/** Every setting of a campaign: rewards (double-sided, levels), attribution, caps, fraud, code validity. */
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
          <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
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
          <Fieldset legend="Rewards">
            <Stack>
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
              {values.levels.map((_, index) => (
                <Group key={form.key(`levels.${index}`)} align="flex-end" wrap="nowrap">
                  <NumberInput
                    label={`Level ${index + 2} amount`}
                    min={0}
                    max={1_000_000_000}
                    decimalScale={2}
                    style={{ flex: 1 }}
                    {...form.getInputProps(`levels.${index}.amount`)}
                  />
                  {index === values.levels.length - 1 && (
                    <Button variant="subtle" color="red" onClick={() => form.removeListItem('levels', index)} aria-label={`Remove level ${index + 2}`}>
                      Remove
                    </Button>
                  )}
                </Group>
              ))}
              {values.levels.length < MAX_LEVEL - 1 && (
                <Group>
                  <Button variant="light" onClick={() => form.insertListItem('levels', { amount: 0 })}>
                    Add level {values.levels.length + 2}
                  </Button>
                </Group>
              )}
            </Stack>
          </Fieldset>
          <Fieldset legend="Attribution and limits">
            <Stack>
              <NumberInput
                label="Attribution window (days)"
                description="A conversion counts when it comes this many days at most after the referee first used the code."
                min={1}
                max={3650}
                allowDecimal={false}
                required
                {...form.getInputProps('attributionWindowDays')}
              />
              <Checkbox label="Cap the rewards of each referrer" {...form.getInputProps('capRewards', { type: 'checkbox' })} />
              {values.capRewards && (
                <NumberInput label="Most rewards per referrer" min={1} max={2_147_483_647} allowDecimal={false} {...form.getInputProps('maxRewardsPerReferrer')} />
              )}
              <NumberInput
                label="Reward code validity (days)"
                description="How long a claimed discount or coupon code stays valid."
                min={1}
                max={3650}
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
