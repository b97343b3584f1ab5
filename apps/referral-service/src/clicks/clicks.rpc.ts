import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import type { RecordClickRequest, ReferralService } from '@ris/contracts';
import type { Logger } from '@ris/logging';
import { Code, invalidArgument, requiredField, tenantOf, toItemError } from '@ris/rpc';
import { contextFields } from '../fraud-check/fraud-check';
import type { ClickRecorder } from './click-recorder';

type ClickCalls = Pick<ServiceImpl<typeof ReferralService>, 'recordClick' | 'recordClicks'>;

/**
 * Clicks at the edge: one click for the call's app, or a batch of many
 * apps' clicks (the gateway sends what arrives together as one call), each
 * click for its own app and answered on its own.
 */
export function clickCalls(clicks: ClickRecorder, logger: Logger): ClickCalls {
  async function recordOneClick(appId: string, req: RecordClickRequest) {
    const click = await clicks.record(appId, {
      referralCode: requiredField(req.referralCode, 'referralCode'),
      refereeId: req.refereeId,
      context: contextFields(req.context),
      operationKey: req.operationKey,
    });
    return { clickId: click._id, referralCode: click.code, clickedAt: timestampFromDate(click.clickedAt) };
  }

  /** One click of a batch failed: the others stand; unexpected failures are logged here, as a single call's would be. */
  function clickError(err: unknown) {
    const error = toItemError(err);
    if (error.code === Code.Internal) logger.error({ err }, 'click failed');
    return error;
  }

  return {
    recordClick: (req, ctx) => recordOneClick(tenantOf(ctx), req),

    async recordClicks(req) {
      if (req.clicks.length < 1 || req.clicks.length > 1000) throw invalidArgument('clicks must hold 1 to 1000 clicks');
      // Each click names its own app, checked as the tenant of a single call is: a blank one fails that click only.
      const settled = await Promise.allSettled(req.clicks.map(async (click) => recordOneClick(requiredField(click.appId, 'appId'), click)));
      return {
        outcomes: settled.map((result) =>
          result.status === 'fulfilled'
            ? { outcome: { case: 'click' as const, value: result.value } }
            : { outcome: { case: 'error' as const, value: clickError(result.reason) } },
        ),
      };
    },
  };
}
