import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { TimeseriesInterval, enumName, type IncentiveService } from '@ris/contracts';
import type { SeriesInterval } from '@ris/mongo';
import { invalidArgument, tenantOf } from '@ris/rpc';
import type { IncentiveSeries } from './incentive-series';

/** HOUR or DAY; a series request without one is malformed. */
function seriesInterval(value: TimeseriesInterval): SeriesInterval {
  const name = enumName(TimeseriesInterval, value) as SeriesInterval | undefined;
  if (!name) throw invalidArgument('interval is required');
  return name;
}

function timeOf(ts: Timestamp | undefined, field: string): Date {
  if (!ts) throw invalidArgument(`${field} is required`);
  return timestampDate(ts);
}

type SeriesCalls = Pick<ServiceImpl<typeof IncentiveService>, 'getActionTimeseries' | 'getEngineTimeseries'>;

/** The series at the edge: an action's figures, and the engine's, per UTC hour or day. */
export function seriesCalls(series: IncentiveSeries): SeriesCalls {
  return {
    async getActionTimeseries(req, ctx) {
      const found = await series.actionSeries(tenantOf(ctx), req.actionKey, seriesInterval(req.interval), timeOf(req.from, 'from'), timeOf(req.to, 'to'));
      return { buckets: found.buckets.map((b) => ({ ...b, start: timestampFromDate(b.start) })), from: timestampFromDate(found.from), to: timestampFromDate(found.to) };
    },
    async getEngineTimeseries(req, ctx) {
      const found = await series.engineSeries(tenantOf(ctx), seriesInterval(req.interval), timeOf(req.from, 'from'), timeOf(req.to, 'to'));
      return {
        totals: found.totals,
        buckets: found.buckets.map(({ start, ...figures }) => ({ start: timestampFromDate(start), figures })),
        from: timestampFromDate(found.from),
        to: timestampFromDate(found.to),
      };
    },
  };
}
