import { Code, type ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { FraudService } from '@ris/contracts';
import { conflict, notFound, refused } from '@ris/domain-errors';
import { errorReason } from './rpc-error';
import { rpcService } from './rpc-server';
import { tenantOf } from './tenant';

// A service as rpcService builds it, on an in-process router: the tenant
// of each call in its context, and domain errors turned into Connect codes.
describe('rpcService: the tenant in the call context, domain errors at the edge', () => {
  const seen: string[] = [];
  const service = rpcService(
    FraudService,
    {
      async getSignalEvidence(req, ctx) {
        seen.push(tenantOf(ctx));
        if (req.campaignId === 'gone') throw notFound('Signal', { campaignId: req.campaignId });
        if (req.campaignId === 'refused') throw refused('CAMPAIGN_INACTIVE', 'The campaign is not active.');
        if (req.campaignId === 'busy') throw conflict('CONFLICT', 'Changed meanwhile; retry.', { id: 'x' });
        return { found: false, windowMinutes: 60 };
      },
      async recordClicks(_req, ctx) {
        // An unscoped call has no tenant: asking for one is a bug.
        tenantOf(ctx);
        return {};
      },
    },
    { tenant: { unscoped: { recordClicks: "a batch of many apps' clicks, each with its own appId" } } },
  );
  const client = createClient(FraudService, createRouterTransport((router) => service.register(router)));
  const failure = (call: Promise<unknown>) => call.then(() => null, (err: unknown) => err as ConnectError);

  it("gives the handler the request's app id, trimmed", async () => {
    seen.length = 0;
    await client.getSignalEvidence({ appId: '  app_1 ', campaignId: 'cmp_1' });
    expect(seen).toEqual(['app_1']);
  });

  it('refuses a call without an app id before the handler runs, as requiredField did', async () => {
    seen.length = 0;
    const err = await failure(client.getSignalEvidence({ appId: ' ', campaignId: 'cmp_1' }));
    expect([err?.code, err?.rawMessage, err && errorReason(err)]).toEqual([Code.InvalidArgument, 'appId is required', { reason: 'VALIDATION_ERROR' }]);
    expect(seen).toEqual([]);
  });

  it('gives an unscoped method no tenant', async () => {
    const err = await failure(client.recordClicks({ clicks: [] }));
    expect(err?.code).toBe(Code.Internal);
  });

  it('turns each domain error into its Connect code, public reason, message and details', async () => {
    const gone = await failure(client.getSignalEvidence({ appId: 'a', campaignId: 'gone' }));
    expect([gone?.code, gone?.rawMessage, gone && errorReason(gone)]).toEqual([Code.NotFound, 'Signal not found', { reason: 'NOT_FOUND', details: { campaignId: 'gone' } }]);
    const refusal = await failure(client.getSignalEvidence({ appId: 'a', campaignId: 'refused' }));
    expect([refusal?.code, refusal && errorReason(refusal).reason]).toEqual([Code.FailedPrecondition, 'CAMPAIGN_INACTIVE']);
    const busy = await failure(client.getSignalEvidence({ appId: 'a', campaignId: 'busy' }));
    expect([busy?.code, busy && errorReason(busy)]).toEqual([Code.Aborted, { reason: 'CONFLICT', details: { id: 'x' } }]);
  });

  it('refuses, at start-up, a tenant declaration that leaves a method without app_id scoped or names no method', () => {
    expect(() => rpcService(FraudService, {}, { tenant: { unscoped: {} } })).toThrow(/RecordClicks is not a call of one request with app_id/);
    expect(() => rpcService(FraudService, {}, { tenant: { unscoped: { recordClicks: 'x', nothing: 'y' } as never } })).toThrow(/no method nothing/);
  });
});
