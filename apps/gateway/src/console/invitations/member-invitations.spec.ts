import { secretTraces, testDatabase } from '@ris/testing';
import { invitationModel } from './invitation.model';
import { MemberInvitations } from './member-invitations';

const ann = { operatorId: 'opr_ann', email: 'ann@example.com', isAdmin: false };

// On the real database the suite runs on (FerretDB locally, MongoDB in production).
describe('invitations by a one-time link', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let invitations: MemberInvitations;

  beforeAll(async () => {
    db = await testDatabase('invitations');
    await invitationModel(db).init();
    invitations = new MemberInvitations(db, 60_000);
  });

  afterAll(() => db.drop());

  it('stores only a hash of the token, finds the invitation by its token, and one per app and address', async () => {
    const issued = (await invitations.create('app_a', 'bob@example.com', 'VIEWER', ann))!;
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.invitation).toMatchObject({ appId: 'app_a', email: 'bob@example.com', role: 'VIEWER', invitedBy: 'opr_ann', invitedByEmail: 'ann@example.com' });
    expect(issued.invitation.expiresAt.getTime() - issued.invitation.sentAt.getTime()).toBe(60_000);
    const stored = await invitationModel(db).collection.find({}).toArray();
    expect(secretTraces(stored, issued.token)).toEqual([]);

    expect((await invitations.byToken(issued.token))?._id).toBe(issued.invitation._id);
    expect(await invitations.byToken('A'.repeat(43))).toBeNull();
    expect(await invitations.create('app_a', 'bob@example.com', 'MANAGER', ann)).toBeNull();
    expect(await invitations.create('app_b', 'bob@example.com', 'MANAGER', ann)).not.toBeNull();
    expect((await invitations.list('app_a')).map((i) => i.email)).toEqual(['bob@example.com']);
  });

  it('is taken by exactly one of concurrent acceptances, and put back when one that took it fails', async () => {
    const { invitation, token } = (await invitations.create('app_a', 'cid@example.com', 'MANAGER', ann))!;
    const taken = await Promise.all(Array.from({ length: 10 }, () => invitations.take(invitation)));
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(await invitations.byToken(token)).toBeNull();
    await invitations.restore(invitation);
    expect((await invitations.byToken(token))?._id).toBe(invitation._id);
  });

  it('re-sends with a new link that kills the old one; revokes; expires', async () => {
    const first = (await invitations.create('app_a', 'dee@example.com', 'VIEWER', ann))!;
    const renewed = (await invitations.renew('app_a', first.invitation._id))!;
    expect(renewed.token).not.toBe(first.token);
    expect(await invitations.byToken(first.token)).toBeNull();
    // Read with the old link before the re-send: taking it by that link fails.
    expect(await invitations.take(first.invitation)).toBe(false);
    expect((await invitations.byToken(renewed.token))?._id).toBe(first.invitation._id);
    expect(await invitations.renew('app_b', first.invitation._id)).toBeNull();

    expect(await invitations.revoke('app_b', first.invitation._id)).toBe(false);
    expect(await invitations.revoke('app_a', first.invitation._id)).toBe(true);
    expect(await invitations.byToken(renewed.token)).toBeNull();

    const late = (await invitations.create('app_a', 'eve@example.com', 'VIEWER', ann))!;
    await invitationModel(db).updateOne({ _id: late.invitation._id }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await invitations.byToken(late.token)).toBeNull();
    expect(await invitations.take(late.invitation)).toBe(false);
    // Still listed (EXPIRED) until re-sent or revoked; a re-send makes it work again.
    expect((await invitations.list('app_a')).map((i) => i.email)).toContain('eve@example.com');
    const again = (await invitations.renew('app_a', late.invitation._id))!;
    expect((await invitations.byToken(again.token))?._id).toBe(late.invitation._id);
  });

  it("drops the app's invitation of an address made a member another way", async () => {
    await invitations.create('app_c', 'fay@example.com', 'VIEWER', ann);
    await invitations.dropFor('app_c', 'fay@example.com');
    expect(await invitations.list('app_c')).toEqual([]);
  });
});
