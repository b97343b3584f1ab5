import { createLogger } from '@ris/logging';
import { testDatabase } from '@ris/testing';
import { auditEntryModel } from './audit-entry.model';
import { AuditTrail, type AuditStart } from './audit-trail';

const ann = { operatorId: 'opr_ann', email: 'ann@example.com', isAdmin: false };
const start = (fields: Partial<AuditStart> = {}): AuditStart => ({
  appId: 'app_1',
  operator: ann,
  action: 'PATCH /api/v1/campaigns/{campaignId}',
  summary: 'Update a campaign',
  target: { type: 'campaign', id: 'cmp_1' },
  before: { campaign: { id: 'cmp_1', name: 'Old', metadata: { 'a.b': 1, $x: 2 } } },
  readRole: 'VIEWER',
  ...fields,
});

// On the real database: what an entry says at each point of a change's life.
describe('the audit trail', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let trail: AuditTrail;

  beforeAll(async () => {
    db = await testDatabase('audit');
    await auditEntryModel(db).init();
    trail = new AuditTrail(db, createLogger('gateway', 'silent'));
  });

  afterAll(() => db.drop());

  const entries = async (appId = 'app_1') => (await trail.list(appId, { page: 1, limit: 100, readRoles: ['VIEWER', 'MANAGER', 'OWNER'] })).items;

  it('is PENDING from before the change runs (a gateway that dies during it leaves that), then SUCCEEDED with the answer', async () => {
    const recording = await trail.begin(start());
    const [pending] = await entries();
    expect(pending).toMatchObject({ outcome: 'PENDING', afterJson: null, operatorId: 'opr_ann', targetId: 'cmp_1' });
    // Keys a field name may not hold are kept as they were: the snapshot is JSON text.
    expect(JSON.parse(pending.beforeJson!)).toEqual({ campaign: { id: 'cmp_1', name: 'Old', metadata: { 'a.b': 1, $x: 2 } } });
    await recording.succeeded({ campaign: { id: 'cmp_1', name: 'New' }, secret: 's3cr3t' }, {});
    const [done] = await entries();
    expect(done).toMatchObject({ _id: pending._id, outcome: 'SUCCEEDED' });
    expect(JSON.parse(done.afterJson!)).toEqual({ campaign: { id: 'cmp_1', name: 'New' }, secret: '[redacted]' });
  });

  it('keeps a change that failed without saying whether it took effect as UNKNOWN, and drops a refused one or a replay', async () => {
    const unknown = await trail.begin(start({ appId: 'app_2' }));
    await unknown.unknown();
    const refused = await trail.begin(start({ appId: 'app_2', target: { type: 'campaign', id: 'cmp_2' } }));
    await refused.discard();
    expect((await entries('app_2')).map((e) => [e.targetId, e.outcome])).toEqual([['cmp_1', 'UNKNOWN']]);
  });

  it('writes the entry of a change whose app only its answer names (an app being created) once it succeeded', async () => {
    const recording = await trail.begin(start({ appId: null, action: 'POST /console/v1/apps', target: null, before: undefined }));
    await recording.succeeded({ app: { id: 'app_new' } }, { appId: 'app_new', target: { type: 'app', id: 'app_new' } });
    expect(await entries('app_new')).toMatchObject([{ outcome: 'SUCCEEDED', targetType: 'app', targetId: 'app_new', beforeJson: null }]);
  });

  it('lists newest first, filtered by operator and action, and only the entries the reader’s role may see', async () => {
    await (await trail.begin(start({ appId: 'app_3', readRole: 'OWNER', action: 'POST /console/v1/apps/{appId}/keys' }))).succeeded({}, {});
    // Entries of one millisecond have no order between them.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await (await trail.begin(start({ appId: 'app_3', operator: { ...ann, operatorId: 'opr_bob' } }))).succeeded({}, {});
    const all = await trail.list('app_3', { page: 1, limit: 10, readRoles: ['VIEWER', 'MANAGER', 'OWNER'] });
    expect(all.items.map((e) => e.operatorId)).toEqual(['opr_bob', 'opr_ann']);
    const forViewers = await trail.list('app_3', { page: 1, limit: 10, readRoles: ['VIEWER'] });
    expect(forViewers.items.map((e) => e.operatorId)).toEqual(['opr_bob']);
    expect((await trail.list('app_3', { page: 1, limit: 10, operatorId: 'opr_ann', readRoles: ['VIEWER', 'OWNER'] })).totalItems).toBe(1);
    expect((await trail.list('app_3', { page: 1, limit: 10, action: 'POST /console/v1/apps/{appId}/keys', readRoles: ['VIEWER', 'OWNER'] })).items).toHaveLength(1);
  });
});
