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
    // Each app's events of the batch ride on that app's last click (an
    // app's events stay in its own documents), and the insert is ordered:
    // that click is stored only once every click before it is, so the
    // clicks and their events are stored together or not at all, and the
    // relay clears one document per app and batch.
    const lastOfApp = new Map<string, number>();
    clicks.forEach((click, i) => lastOfApp.set(click.appId, i));
    const carriers = new Map(
      [...lastOfApp].map(([appId, last]) => [
        last,
        this.store.clickEvents.carry(
          clicks.flatMap((click, i) => (click.appId === appId ? [referralClicked(click, batch[i].referral)] : [])),
          clickedAt,
        ),
      ]),
    );
    await this.store.clicks.insertMany(
      clicks.map((click, i) => ({ ...click, ...carriers.get(i)?.fields })),
      { ordered: true },
    );
    crashPoint('referral.clicked');
    for (const [i, carried] of carriers) carried.written(clicks[i]);

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
