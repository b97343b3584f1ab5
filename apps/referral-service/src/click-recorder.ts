import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { GroupCommit, newId } from '@ris/mongo';
import type { ClickDoc } from './click.model';
import { contextProto, type FraudCheck } from './fraud-check';
import type { RefereeFunnel } from './referee-funnel';
import { referralClicked } from './referral-events';
import type { ClientContextDoc, ReferralRef } from './referral.model';
import type { ReferralStore } from './referral-store';

interface NewClick {
  appId: string;
  referral: ReferralRef;
  refereeId: string | null;
  context: ClientContextDoc;
}

/** Counts one more under `key`, keeping the first `value` seen for it. */
function tally<V>(totals: Map<string, { value: V; count: number }>, key: string, value: V): void {
  const entry = totals.get(key);
  if (entry) entry.count += 1;
  else totals.set(key, { value, count: 1 });
}

/**
 * Clicks are the busiest write of the referral product, so the clicks that
 * arrive together are stored together (group commit): one insert for their
 * documents, one for their events, one increment per referral and per
 * campaign for the batch, one call with their fraud signals. Each request
 * is answered once its click, counters and event are stored.
 */
export class ClickRecorder {
  private readonly commit: GroupCommit<NewClick, ClickDoc>;

  constructor(
    private readonly store: ReferralStore,
    private readonly funnel: RefereeFunnel,
    private readonly fraud: FraudCheck,
  ) {
    this.commit = new GroupCommit((clicks) => this.storeBatch(clicks));
  }

  record(appId: string, referral: ReferralRef, refereeId: string | null, context: ClientContextDoc): Promise<ClickDoc> {
    return this.commit.add({ appId, referral, refereeId, context });
  }

  private async storeBatch(batch: NewClick[]): Promise<ClickDoc[]> {
    const clickedAt = new Date();
    const clicks: ClickDoc[] = batch.map(({ appId, referral, refereeId, context }) => ({
      _id: newId('clk'),
      appId,
      referralId: referral._id,
      campaignId: referral.campaignId,
      code: referral.code,
      refereeId,
      ip: context.ip,
      userAgent: context.userAgent,
      deviceId: context.deviceId,
      clickedAt,
    }));
    await this.store.clicks.insertMany(clicks);

    const byReferral = new Map<string, { value: { appId: string; referral: ReferralRef }; count: number }>();
    const byCampaign = new Map<string, { value: { appId: string; campaignId: string }; count: number }>();
    for (const { appId, referral } of batch) {
      tally(byReferral, `${appId}\u0000${referral._id}`, { appId, referral });
      tally(byCampaign, `${appId}\u0000${referral.campaignId}`, { appId, campaignId: referral.campaignId });
    }
    await Promise.all([
      ...[...byReferral.values()].map(({ value, count }) => this.store.countOnReferral(value.appId, value.referral, { clicks: count })),
      ...[...byCampaign.values()].map(({ value, count }) => this.store.stats.count(value.appId, value.campaignId, { totalClicks: count })),
      ...batch.map(({ appId, referral, refereeId }) => (refereeId ? this.funnel.clicked(appId, referral, refereeId, clickedAt) : undefined)),
      this.store.outbox.add(clicks.map((click, i) => referralClicked(click, batch[i].referral))),
    ]);

    this.fraud.recordClicks(
      clicks.map((click, i) => ({
        appId: click.appId,
        campaignId: click.campaignId,
        clickId: click._id,
        referralCode: click.code,
        referrerId: batch[i].referral.referrerId,
        refereeId: click.refereeId ?? undefined,
        context: contextProto(batch[i].context),
        occurredAt: timestampFromDate(clickedAt),
      })),
    );
    return clicks;
  }
}
