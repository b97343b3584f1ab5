import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { uniqueName } from '@ris/testing';
import { webhookStores, type WebhookStores } from '../testing/webhook-stores';
import { EndpointLookup } from './endpoint-lookup';
import { Endpoints } from './endpoints';

// The dispatcher's endpoint reads, kept a second, against real FerretDB/MongoDB (reads counted on the repository).
describe('endpoint lookup', () => {
  let stores: WebhookStores;
  let endpoints: Endpoints;
  let clock = 0;

  beforeAll(async () => {
    stores = await webhookStores('webhook_lookup');
    endpoints = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, new EnvelopeCipher(parseKeyring(newKeyringEntry('test'))));
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await stores.db.drop();
  });

  const setUp = async () => {
    const appId = uniqueName('app');
    const created = await Promise.all([1, 2, 3].map((i) => endpoints.create(appId, { url: `http://127.0.0.1:9/hook/${i}`, events: [] })));
    const reads = jest.spyOn(stores.endpoints, 'findById');
    const lookup = new EndpointLookup(stores.endpoints, 1000, () => clock);
    return { appId, ids: created.map((c) => c.endpoint._id), reads, lookup };
  };

  it('reads an endpoint once a second, and again after a change this process made', async () => {
    const { appId, ids, reads, lookup } = await setUp();
    clock = 10_000;
    expect((await lookup.find(appId, ids[0]))?._id).toBe(ids[0]);
    clock += 999;
    await lookup.find(appId, ids[0]);
    expect(reads).toHaveBeenCalledTimes(1);
    clock += 1;
    await lookup.find(appId, ids[0]);
    expect(reads).toHaveBeenCalledTimes(2);
    lookup.forget({ appId, _id: ids[0] });
    await lookup.find(appId, ids[0]);
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it("keeps the endpoints of the fan-out's read, so their attempts need no read each, for a second from that read", async () => {
    const { appId, ids, reads, lookup } = await setUp();
    clock = 20_000;
    const read = lookup.startRead();
    lookup.remember(await stores.endpoints.enabled(appId), read);
    clock += 500;
    expect((await Promise.all(ids.map((id) => lookup.find(appId, id)))).map((e) => e?._id)).toEqual(ids);
    expect(reads).not.toHaveBeenCalled();
    clock += 500;
    await lookup.find(appId, ids[0]);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('does not keep a read that a change of this process overlapped, nor let an older read replace a newer one', async () => {
    const { appId, ids, reads, lookup } = await setUp();
    clock = 30_000;
    const read = lookup.startRead();
    const answer = await stores.endpoints.enabled(appId);
    // Changed (and forgotten) while the read was on its way: its answer may predate the change.
    lookup.forget({ appId, _id: ids[1] });
    lookup.remember(answer, read);
    await lookup.find(appId, ids[1]);
    expect(reads).toHaveBeenCalledTimes(1);
    // An older read does not replace what was read since.
    const older = { at: clock - 800, changes: lookup.startRead().changes };
    clock += 300;
    lookup.remember(answer, older);
    await lookup.find(appId, ids[1]);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
