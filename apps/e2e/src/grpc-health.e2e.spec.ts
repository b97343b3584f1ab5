import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { e2eStack } from '@ris/testing';

// A stock gRPC client (grpc-js, as grpc_health_probe and Kubernetes use)
// must be able to call every service's standard health check.
describe('grpc.health.v1 with a stock grpc-js client', () => {
  const definition = protoLoader.loadSync(join(__dirname, '../../../proto/grpc/health/v1/health.proto'), { keepCase: true, enums: String });
  const proto = grpc.loadPackageDefinition(definition) as any;

  const check = (url: string, service: string) =>
    new Promise<{ status: string }>((resolve, reject) => {
      const client = new proto.grpc.health.v1.Health(new URL(url).host, grpc.credentials.createInsecure());
      client.Check({ service }, { deadline: Date.now() + 5000 }, (err: Error | null, res: { status: string }) => {
        client.close();
        if (err) reject(err);
        else resolve(res);
      });
    });

  it.each(Object.keys(JSON.parse(process.env.E2E_SERVICE_URLS ?? '{}')))('%s reports SERVING', async (service) => {
    const url = e2eStack().serviceUrls[service];
    expect(await check(url, '')).toEqual({ status: 'SERVING' });
  });

  it('reports SERVICE_UNKNOWN for a name it does not serve, and SERVING for its own', async () => {
    const url = e2eStack().serviceUrls['referral-service'];
    expect(await check(url, 'referral.v1.ReferralService')).toEqual({ status: 'SERVING' });
    expect(await check(url, 'nope.v1.Nothing')).toEqual({ status: 'SERVICE_UNKNOWN' });
  });
});
