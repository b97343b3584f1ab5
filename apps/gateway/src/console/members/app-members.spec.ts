import { ApiError } from '../../http/api-error';
import { appModel } from '../../tenancy/app.model';
import { testDatabase } from '@ris/testing';
import { AppMembers } from './app-members';

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 'OK';
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}`;
    throw err;
  }
};

// On the real database the suite runs on (FerretDB locally, MongoDB in production).
describe("an app's members", () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let members: AppMembers;

  beforeAll(async () => {
    db = await testDatabase('members');
    await appModel(db).init();
    await appModel(db).create([
      { _id: 'app_a', name: 'A', createdAt: new Date(1000), members: [], operatorIds: [], membersVersion: 0 },
      // An app made before operators existed: no members fields at all.
      { _id: 'app_old', name: 'Old', createdAt: new Date(2000) },
      { _id: 'app_b', name: 'B', createdAt: new Date(3000), members: [], operatorIds: [], membersVersion: 0 },
    ]);
    members = new AppMembers(db);
  });

  afterAll(() => db.drop());

  const ann = { operatorId: 'opr_ann', email: 'ann@example.com', isAdmin: false };
  const root = { operatorId: 'opr_root', email: 'root@example.com', isAdmin: true };

  it("adds members with roles and finds each operator's apps and role", async () => {
    await members.add('app_a', 'opr_ann', 'OWNER');
    await members.add('app_old', 'opr_ann', 'VIEWER');
    await members.add('app_a', 'opr_bob', 'MANAGER');
    expect(await codeOf(members.add('app_a', 'opr_bob', 'VIEWER'))).toBe('409 ALREADY_EXISTS');
    expect(await codeOf(members.add('app_none', 'opr_bob', 'VIEWER'))).toBe('404 NOT_FOUND');
    expect(await members.roleOf(ann, 'app_a')).toBe('OWNER');
    expect(await members.roleOf(ann, 'app_old')).toBe('VIEWER');
    expect(await members.roleOf(ann, 'app_b')).toBeNull();
    expect(await members.roleOf(ann, 'app_none')).toBeNull();
    expect(await members.appsOf(ann)).toEqual([
      { id: 'app_a', name: 'A', role: 'OWNER' },
      { id: 'app_old', name: 'Old', role: 'VIEWER' },
    ]);
    expect((await members.list('app_a'))!.map((m) => [m.operatorId, m.role])).toEqual([
      ['opr_ann', 'OWNER'],
      ['opr_bob', 'MANAGER'],
    ]);
  });

  it('gives an instance administrator every existing app as OWNER', async () => {
    expect(await members.roleOf(root, 'app_b')).toBe('OWNER');
    expect(await members.roleOf(root, 'app_none')).toBeNull();
    expect((await members.appsOf(root)).map((a) => [a.id, a.role])).toEqual([
      ['app_a', 'OWNER'],
      ['app_old', 'OWNER'],
      ['app_b', 'OWNER'],
    ]);
  });

  it('keeps at least one OWNER: the last one is neither demoted nor removed; another OWNER first makes it possible', async () => {
    expect(await codeOf(members.setRole('app_a', 'opr_ann', 'MANAGER'))).toBe('409 LAST_OWNER');
    expect(await codeOf(members.remove('app_a', 'opr_ann'))).toBe('409 LAST_OWNER');
    expect(await codeOf(members.put('app_a', 'opr_ann', 'VIEWER'))).toBe('409 LAST_OWNER');
    expect(await codeOf(members.setRole('app_a', 'opr_nobody', 'MANAGER'))).toBe('404 NOT_FOUND');
    await members.setRole('app_a', 'opr_bob', 'OWNER');
    await members.setRole('app_a', 'opr_ann', 'VIEWER');
    expect(await codeOf(members.remove('app_a', 'opr_bob'))).toBe('409 LAST_OWNER');
    await members.remove('app_a', 'opr_ann');
    expect(await members.roleOf(ann, 'app_a')).toBeNull();
    expect((await members.appsOf(ann)).map((a) => a.id)).toEqual(['app_old']);
  });

  it('never leaves an app without an OWNER when its two OWNERs are demoted at the same time', async () => {
    await members.put('app_b', 'opr_x', 'OWNER');
    await members.put('app_b', 'opr_y', 'OWNER');
    // One gateway's concurrent requests (FerretDB's case: one replica; on MongoDB the version compare-and-set also holds across replicas).
    const other = members;
    const outcomes = await Promise.all([
      codeOf(members.setRole('app_b', 'opr_x', 'VIEWER')),
      codeOf(other.setRole('app_b', 'opr_y', 'VIEWER')),
      codeOf(members.remove('app_b', 'opr_y')),
      codeOf(other.remove('app_b', 'opr_x')),
    ]);
    const owners = (await members.list('app_b'))!.filter((m) => m.role === 'OWNER');
    expect(owners).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'OK').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.every((o) => ['OK', '409 LAST_OWNER', '409 CONFLICT', '404 NOT_FOUND'].includes(o))).toBe(true);
  });

  it('adds many operators at once without losing one', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => members.add('app_old', `opr_n${i}`, 'VIEWER')));
    const list = (await members.list('app_old'))!.map((m) => m.operatorId);
    for (let i = 0; i < 12; i += 1) expect(list).toContain(`opr_n${i}`);
    expect(new Set(list).size).toBe(list.length);
  });
});
