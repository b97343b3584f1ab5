import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ok } from '../../api/api-error';
import { notifyError } from '../../app/query-client';
import type { Campaign, CampaignStatus } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate, useAllows } from '../../session/session-context';
import { ConfirmButton } from '../../ui/confirm-button';
import { applyFieldErrors } from '../../ui/form-errors';
import { formatDateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { CampaignFigures } from './campaign-figures';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { CampaignForm } from './campaign-form';
import { createRequest, formFieldOf, formValuesOf, NEW_CAMPAIGN, updateRequest, type CampaignFormValues } from './campaign-request';
import { CampaignStatusBadge, scheduleText, statusActions } from './campaign-status';
import { campaignValidation } from './campaign-validation';
import { rewardsText } from './reward-rule-form';

/** Create a campaign (`campaigns/new`), or see and edit one, and pause, resume or end it. */
export function CampaignEditPage() {
  const { campaignId } = useParams();
  const isNew = campaignId === undefined;
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const canEdit = useAllows('MANAGER');
  const form = useForm<CampaignFormValues>({ initialValues: NEW_CAMPAIGN, validate: campaignValidation });

  const campaign = useQuery({
    queryKey: ['app', appId, 'campaign', campaignId],
    queryFn: () => ok(api.GET('/api/v1/campaigns/{campaignId}', { params: { path: { campaignId: campaignId! } } })).then((d) => d.campaign),
    enabled: !isNew,
  });
  const loaded = campaign.data;
  useEffect(() => {
    if (loaded) {
      form.setValues(formValuesOf(loaded));
      form.resetDirty();
    }
    // The form is filled once per version of the campaign read (form is stable).
  }, [loaded]);

  const onSaved = (saved: Campaign) => {
    queryClient.setQueryData(['app', appId, 'campaign', saved.id], saved);
    void queryClient.invalidateQueries({ queryKey: ['app', appId, 'campaigns'] });
  };
  const save = useMutation({
    mutationFn: (values: CampaignFormValues) =>
      isNew
        ? ok(api.POST('/api/v1/campaigns', { body: createRequest(values) })).then((d) => d.campaign)
        : ok(api.PATCH('/api/v1/campaigns/{campaignId}', { params: { path: { campaignId: campaignId! } }, body: updateRequest(values) })).then(
            (d) => d.campaign,
          ),
    meta: { errorsShownInForm: true },
    onSuccess: (saved) => {
      onSaved(saved);
      notifications.show({ color: 'green', message: isNew ? `Campaign “${saved.name}” created.` : 'Campaign saved.' });
      if (isNew) void navigate(`/apps/${encodeURIComponent(appId)}/campaigns/${encodeURIComponent(saved.id)}`, { replace: true });
    },
    onError: (err) => {
      // Errors without fields (a 409, a 422 code, a 403) go to the global notification.
      if (!applyFieldErrors(form, err, (field) => formFieldOf(field, form.getValues()))) notifyError(err);
    },
  });
  const setStatus = useMutation({
    mutationFn: (status: CampaignStatus) =>
      ok(api.PATCH('/api/v1/campaigns/{campaignId}', { params: { path: { campaignId: campaignId! } }, body: { status } })).then((d) => d.campaign),
    onSuccess: (saved) => {
      onSaved(saved);
      notifications.show({ color: 'green', message: `Campaign ${saved.status.toLowerCase()}.` });
    },
  });

  const back = (
    <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/campaigns`} size="sm">
      ← Campaigns
    </Anchor>
  );
  if (isNew) {
    return (
      <>
        {back}
        <PageHeader title="New campaign" />
        <RoleGate least="MANAGER">
          <CampaignForm form={form} isNew readOnly={false} submitting={save.isPending} onSubmit={(v) => save.mutate(v)} />
        </RoleGate>
        {!canEdit && <Text>Your role can see campaigns but not create them.</Text>}
      </>
    );
  }
  return (
    <>
      {back}
      <QueryView query={campaign} skeleton={<TableSkeleton rows={8} label="Loading the campaign" />}>
        {(c) => (
          <>
            <PageHeader
              title={c.name}
              description={
                <Stack gap={4} component="span">
                  <Group gap="xs" component="span">
                    <CampaignStatusBadge status={c.effectiveStatus} />
                    <span>
                      {[c.id, scheduleText(c), `created ${formatDateTime(c.createdAt)}`, `updated ${formatDateTime(c.updatedAt)}`].filter(Boolean).join(' · ')}
                    </span>
                  </Group>
                  <span aria-label="Rewards">{rewardsText(c)}</span>
                </Stack>
              }
              actions={
                <RoleGate least="MANAGER">
                  {statusActions(c.status).map((action) => (
                    <ConfirmButton
                      key={action.to}
                      variant="light"
                      color={action.color}
                      title={`${action.label} “${c.name}”?`}
                      message={action.message}
                      confirmLabel={action.label}
                      loading={setStatus.isPending}
                      onConfirm={() => setStatus.mutateAsync(action.to)}
                    >
                      {action.label}
                    </ConfirmButton>
                  ))}
                </RoleGate>
              }
            />
            <CampaignFigures campaignId={c.id} currency={c.currency} />
            <CampaignForm form={form} isNew={false} readOnly={!canEdit || c.status === 'ENDED'} submitting={save.isPending} onSubmit={(v) => save.mutate(v)} />
          </>
        )}
      </QueryView>
    </>
  );
}
