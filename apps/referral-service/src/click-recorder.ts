import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { crashPoint } from '@ris/config';
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

/**
 * Clicks are the busiest write of the referral product, so the clicks that
 * arrive together are stored together (group commit): one insert for their
 * documents and events, one increment of each campaign's counter for the
 * batch, one call with their fraud signals. Each request is answered once
 * its click with its event and the campaign counter are stored.
 *
 * A referral's own clicks are not a counter rewritten on every click (with
 * clicks spread over many referrals that was one more update per click,
 * the costliest write there is): GET /users/{userId}/stats counts the
 * referrer's click documents by index instead.
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
      referrerId: referral.referrerId,
      code: referral.code,
      refereeId,
      ip: context.ip,
      userAgent: context.userAgent,
      deviceId: context.deviceId,
      clickedAt,
    }));
    // The batch's events ride on its last click, and the insert is ordered:
    // that click is stored only once all the others are, so the clicks and
    // their events are stored together or not at all, and the relay clears
    // one document per batch.
    const carried = this.store.clickEvents.carry(
      clicks.map((click, i) => referralClicked(click, batch[i].referral)),
      clickedAt,
    );
    const last = clicks.length - 1;
    await this.store.clicks.insertMany(
      clicks.map((click, i) => (i === last ? { ...click, ...carried.fields } : click)),
      { ordered: true },
    );
    crashPoint('referral.clicked');
    carried.written(clicks[last]);

    // One increment per campaign for the batch.
    const byCampaign = new Map<string, { appId: string; campaignId: string; clicks: number }>();
    for (const { appId, referral } of batch) {
      const key = `${appId}\u0000${referral.campaignId}`;
      const entry = byCampaign.get(key) ?? { appId, campaignId: referral.campaignId, clicks: 0 };
      entry.clicks += 1;
      byCampaign.set(key, entry);
    }
    await Promise.all([
      ...[...byCampaign.values()].map(({ appId, campaignId, clicks }) => this.store.stats.count(appId, campaignId, { totalClicks: clicks })),
      ...batch.map(({ appId, referral, refereeId }) => (refereeId ? this.funnel.clicked(appId, referral, refereeId, clickedAt) : undefined)),
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
