import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { CampaignEffectiveStatus, CampaignStatus, TimeseriesInterval, TopReferrersOrder, enumName, type ReferralService } from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { CampaignStatusName } from '../campaigns/campaign.model';
import type { CampaignEffectiveStatusName } from '../campaigns/campaign-schedule';
import { campaignMessage } from '../campaigns/campaigns.rpc';
import type { BucketInterval } from './campaign-buckets';
import type { CampaignFigures } from './campaign-figures';
import type { ReferrerStats } from './referrer-stats';
import { MAX_TOP_REFERRERS, type TopReferrers, type TopReferrersOrder as Order } from './top-referrers';

/** A required timestamp field. */
function requiredTime(ts: Timestamp | undefined, field: string): Date {
  if (!ts) throw invalidArgument(`${field} is required`);
  return timestampDate(ts);
}

type StatsCalls = Pick<
  ServiceImpl<typeof ReferralService>,
  'getCampaignStats' | 'getCampaignTimeseries' | 'getUserStats' | 'listCampaignStats' | 'getTopReferrers'
>;

/** The figures at the edge: a campaign's totals and time series (or the app's), a referrer's, the best referrers of a period. */
export function statsCalls(figures: CampaignFigures, referrers: ReferrerStats, top: TopReferrers): StatsCalls {
  return {
    async getCampaignStats(req, ctx) {
      return figures.totals(tenantOf(ctx), requiredField(req.campaignId, 'campaignId'));
    },

    async getCampaignTimeseries(req, ctx) {
      const appId = tenantOf(ctx);
      const interval = enumName(TimeseriesInterval, req.interval) as BucketInterval | undefined;
      if (!interval) throw invalidArgument('interval must be HOUR or DAY');
      const series = await figures.timeseries(appId, req.campaignId || undefined, interval, requiredTime(req.from, 'from'), requiredTime(req.to, 'to'));
      return {
        buckets: series.buckets.map((b) => ({ ...b, start: timestampFromDate(b.start) })),
        from: timestampFromDate(series.from),
        to: timestampFromDate(series.to),
      };
    },

    async getUserStats(req, ctx) {
      return referrers.of(tenantOf(ctx), requiredField(req.userId, 'userId'), req.campaignId || undefined);
    },

    async listCampaignStats(req, ctx) {
      const status = enumName(CampaignStatus, req.status) as CampaignStatusName | undefined;
      const effectiveStatus = enumName(CampaignEffectiveStatus, req.effectiveStatus) as CampaignEffectiveStatusName | undefined;
      const { campaigns, totals } = await figures.page(tenantOf(ctx), pageFromRequest(req.page), { status, effectiveStatus });
      return {
        campaigns: campaigns.items.map(({ campaign, counts }) => ({ campaign: campaignMessage(campaign), stats: counts })),
        page: pageReply(campaigns),
        totals,
      };
    },

    async getTopReferrers(req, ctx) {
      const order = enumName(TopReferrersOrder, req.order) as Order | undefined;
      if (!order) throw invalidArgument('order must be CONVERSIONS or REWARD_VALUE');
      if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MAX_TOP_REFERRERS) throw invalidArgument(`limit must be 1 to ${MAX_TOP_REFERRERS}`);
      const from = requiredTime(req.from, 'from');
      const to = requiredTime(req.to, 'to');
      const referrers = await top.of(tenantOf(ctx), { from, to, campaignId: req.campaignId || undefined }, order, req.limit);
      return { referrers };
    },
  };
}
