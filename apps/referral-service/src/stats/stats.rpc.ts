import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { TimeseriesInterval, enumName, type ReferralService } from '@ris/contracts';
import { invalidArgument, requiredField, tenantOf } from '@ris/rpc';
import type { BucketInterval } from './campaign-buckets';
import type { CampaignFigures } from './campaign-figures';
import type { ReferrerStats } from './referrer-stats';

/** A required timestamp field. */
function requiredTime(ts: Timestamp | undefined, field: string): Date {
  if (!ts) throw invalidArgument(`${field} is required`);
  return timestampDate(ts);
}

type StatsCalls = Pick<ServiceImpl<typeof ReferralService>, 'getCampaignStats' | 'getCampaignTimeseries' | 'getUserStats'>;

/** The figures at the edge: a campaign's totals and time series, a referrer's. */
export function statsCalls(figures: CampaignFigures, referrers: ReferrerStats): StatsCalls {
  return {
    async getCampaignStats(req, ctx) {
      return figures.totals(tenantOf(ctx), requiredField(req.campaignId, 'campaignId'));
    },

    async getCampaignTimeseries(req, ctx) {
      const appId = tenantOf(ctx);
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const interval = enumName(TimeseriesInterval, req.interval) as BucketInterval | undefined;
      if (!interval) throw invalidArgument('interval must be HOUR or DAY');
      const series = await figures.timeseries(appId, campaignId, interval, requiredTime(req.from, 'from'), requiredTime(req.to, 'to'));
      return {
        buckets: series.buckets.map((b) => ({ ...b, start: timestampFromDate(b.start) })),
        from: timestampFromDate(series.from),
        to: timestampFromDate(series.to),
      };
    },

    async getUserStats(req, ctx) {
      return referrers.of(tenantOf(ctx), requiredField(req.userId, 'userId'), req.campaignId || undefined);
    },
  };
}
