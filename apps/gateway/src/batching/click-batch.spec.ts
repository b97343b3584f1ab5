import { createClient, createRouterTransport, type ServiceImpl } from '@connectrpc/connect';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ReferralService, type RecordClickRequest } from '@ris/contracts';
import { REQUEST_ID_HEADER, runWithRequestContext } from '@ris/logging';
import { Code, ConnectError, errorReason, notFound } from '@ris/rpc';
import { ClickBatch } from './click-batch';

const answer = (req: RecordClickRequest) => {
  if (req.referralCode === 'UNKNOWN1') throw notFound('Referral code', { referralCode: req.referralCode });
  return { clickId: `clk_${req.referralCode}`, referralCode: req.referralCode, clickedAt: timestampFromDate(new Date()) };
};

function batchAgainst(impl: Partial<ServiceImpl<typeof ReferralService>>) {
  return new ClickBatch(createClient(ReferralService, createRouterTransport((router) => router.service(ReferralService, impl))));
}

describe('ClickBatch', () => {
  it('sends the clicks of one turn as one call and answers each with its own outcome, opened by the first request', async () => {
    const calls: Array<{ codes: string[]; requestId: string | null }> = [];
    const batch = batchAgainst({
      async recordClicks(req, ctx) {
        calls.push({ codes: req.clicks.map((c) => c.referralCode), requestId: ctx.requestHeader.get(REQUEST_ID_HEADER) });
        return {
          outcomes: req.clicks.map((click) => {
            try {
              return { outcome: { case: 'click' as const, value: answer(click) } };
            } catch (err) {
              return { outcome: { case: 'error' as const, value: { code: (err as ConnectError).code, message: (err as ConnectError).rawMessage, detail: { reason: 'NOT_FOUND' } } } };
            }
          }),
        };
      },
    });
    const results = await Promise.allSettled(
      ['CODE0001', 'UNKNOWN1', 'CODE0002'].map((referralCode, i) =>
        runWithRequestContext({ requestId: `req-${i}` }, () => batch.record({ appId: 'app_1', referralCode })),
      ),
    );
    expect(calls).toEqual([{ codes: ['CODE0001', 'UNKNOWN1', 'CODE0002'], requestId: 'req-0' }]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.clickId : (r.reason as ConnectError).code))).toEqual(['clk_CODE0001', Code.NotFound, 'clk_CODE0002']);
    expect(errorReason((results[1] as PromiseRejectedResult).reason as ConnectError).reason).toBe('NOT_FOUND');
  });

  it('falls back to single calls when the service does not know RecordClicks yet (a rolling upgrade)', async () => {
    const batch = batchAgainst({ recordClick: async (req) => answer(req) });
    const results = await Promise.allSettled(['CODE0003', 'UNKNOWN1'].map((referralCode) => batch.record({ appId: 'app_1', referralCode })));
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { clickId: 'clk_CODE0003' } });
    const refused = (results[1] as PromiseRejectedResult).reason as ConnectError;
    expect([refused.code, errorReason(refused)]).toEqual([Code.NotFound, { reason: 'NOT_FOUND', details: { referralCode: 'UNKNOWN1' } }]);
  });

  it('fails every click of a call the service could not answer, as a single call would', async () => {
    const batch = batchAgainst({
      recordClicks: async () => {
        throw new ConnectError('down', Code.Unavailable);
      },
    });
    const results = await Promise.allSettled(['A', 'B'].map((referralCode) => batch.record({ appId: 'app_1', referralCode })));
    expect(results.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual([Code.Unavailable, Code.Unavailable]);
  });
});
