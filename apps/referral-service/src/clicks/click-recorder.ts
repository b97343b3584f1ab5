import type { Logger } from '@ris/logging';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Counter } from 'prom-client';
import { crashPoint } from '@ris/config';
import { notFound } from '@ris/domain-errors';
import { GroupCommit, newId } from '@ris/mongo';
import type { RefereeFunnel } from '../conversions/referee-funnel';
import { contextFields, contextProto, type FraudCheck } from '../fraud-check/fraud-check';
import type { ReferralLookup } from '../referrals/referral-lookup';
import type { ClientContextDoc, ReferralRef } from '../referrals/referral.model';
import type { CampaignStats } from '../stats/campaign-stats';
import { referralClicked } from './click-events';
import type { ClickDoc } from './click.model';
import type { ClickRepository } from './click.repository';

/** Business counter of the referral service (per process; sum over replicas). */
const clicksRecorded = new Counter({ name: 'ris_clicks_total', help: 'Clicks recorded (first and repeated clicks of a code)' });

/** A click as a request reports it. */
export interface ClickInput {
  referralCode: string;
  refereeId?: string;
  context?: Partial<ClientContextDoc>;
  /** From the request's Idempotency-Key (empty without one): the click's id derives from it. */
  operationKey?: string;
}

interface NewClick {
  appId: string;
  referral: ReferralRef;
  refereeId: string | null;
  context: ClientContextDoc;
  /** From the request's Idempotency-Key (empty without one): the click's id derives from it. */
  operationKey: string;
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
    private readonly clicks: ClickRepository,
    private readonly lookup: ReferralLookup,
    private readonly stats: CampaignStats,
    private readonly funnel: RefereeFunnel,
    private readonly fraud: FraudCheck,
    private readonly logger: Logger,
  ) {
    this.commit = new GroupCommit((clicks) => this.storeBatch(clicks));
  }

  /**
   * A click on a code: stored with the other clicks of the moment, with
   * the campaign's click counters, the event, and (when the click names
   * the referee) the referee's funnel record moved to CLICKED. The fraud
   * service gets the click's signals without the response waiting for it.
   */
  async record(appId: string, input: ClickInput): Promise<ClickDoc> {
    // Only what never changes about the referral is needed here: its code key has it.
    const key = await this.lookup.codeKey(appId, input.referralCode);
    if (!key) throw notFound('Referral code', { referralCode: input.referralCode });
    const referral: ReferralRef = { _id: key.referralId, code: key.code, campaignId: key.campaignId, referrerId: key.referrerId };
    return this.commit.add({ appId, referral, refereeId: input.refereeId ?? null, context: contextFields(input.context), operationKey: input.operationKey ?? '' });
  }

  /**
   * A click whose id is already stored is a retry of a request whose first
   * try stored it (same operation key): it is answered with that click and
   * counted, announced and scored only once, by the try that stored it.
   */
  private async storeBatch(batch: NewClick[]): Promise<ClickDoc[]> {
    const clickedAt = new Date();
    const all: ClickDoc[] = batch.map(({ appId, referral, refereeId, context, operationKey }) => ({
      _id: operationKey ? `clk_${operationKey}` : newId('clk'),
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
    // A click whose id is already stored is a retry of a request whose first
    // try stored it (its operation key): answered with that click, and not
    // stored, counted, announced or scored again.
    const stored = await Promise.all(all.map((click, i) => (batch[i].operationKey ? this.clicks.findById(click.appId, click._id) : null)));
    const answers = all.map((click, i) => stored[i] ?? click);
    const fresh = batch.filter((_, i) => !stored[i]);
    const clicks = all.filter((_, i) => !stored[i]);
    if (clicks.length === 0) return answers;
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
        this.clicks.events.carry(
          clicks.flatMap((click, i) => (click.appId === appId ? [referralClicked(click, fresh[i].referral)] : [])),
          clickedAt,
        ),
      ]),
    );
    await this.clicks.insertBatch(clicks.map((click, i) => ({ ...click, ...carriers.get(i)?.fields })));
    crashPoint('referral.clicked');
    for (const [i, carried] of carriers) carried.written(clicks[i]);
    clicksRecorded.inc(clicks.length);

    // One increment per campaign for the batch.
    const byCampaign = new Map<string, { appId: string; campaignId: string; clicks: number }>();
    for (const { appId, referral } of fresh) {
      const key = `${appId}\u0000${referral.campaignId}`;
      const entry = byCampaign.get(key) ?? { appId, campaignId: referral.campaignId, clicks: 0 };
      entry.clicks += 1;
      byCampaign.set(key, entry);
    }
    // The clicks are stored: a counter or funnel write that fails is logged
    // (the counters can be rebuilt from the clicks), never the batch's
    // answer, which would fail every click for one referee's write and be
    // retried into a click that is not counted again.
    const counted = await Promise.allSettled([
      ...[...byCampaign.values()].map(({ appId, campaignId, clicks }) => this.stats.count(appId, campaignId, { totalClicks: clicks }, clickedAt)),
      ...fresh.map(({ appId, referral, refereeId }) => (refereeId ? this.funnel.clicked(appId, referral, refereeId, clickedAt) : undefined)),
    ]);
    for (const outcome of counted) {
      if (outcome.status === 'rejected') this.logger.error({ err: outcome.reason }, 'a stored click batch could not update a counter or funnel record');
    }

    this.fraud.recordClicks(
      clicks.map((click, i) => ({
        appId: click.appId,
        campaignId: click.campaignId,
        clickId: click._id,
        referralCode: click.code,
        referrerId: fresh[i].referral.referrerId,
        refereeId: click.refereeId ?? undefined,
        context: contextProto(fresh[i].context),
        occurredAt: timestampFromDate(clickedAt),
      })),
    );
    return answers;
  }
}
