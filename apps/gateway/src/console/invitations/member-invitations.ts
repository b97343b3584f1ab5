import type { Connection } from 'mongoose';
import { Repository, newId } from '@ris/mongo';
import type { OperatorIdentity, Role } from '../access/principal';
import { invitationModel, type InvitationRecord } from './invitation.model';
import { invitationTokenHash, newInvitationToken } from './invitation-token';

/** An invitation with the token of its current link: the token is shown once, in the answer that made it. */
export interface IssuedInvitation {
  invitation: InvitationRecord;
  token: string;
}

/**
 * Invitations to an app by a one-time link (invitation.model.ts). Using
 * one up is deleting it: of concurrent deletes of one document exactly one
 * reports it, on MongoDB and FerretDB alike (FerretDB has no transactions,
 * and runs a conditional update as a read and a write), so of two
 * acceptances of one link exactly one goes on.
 */
export class MemberInvitations extends Repository<InvitationRecord> {
  constructor(
    db: Connection,
    /** How long a link works after it was made (INVITATION_LIFETIME_SECONDS). */
    private readonly lifetimeMs: number,
  ) {
    super(invitationModel(db));
  }

  private newLink(): { token: string; tokenHash: string; sentAt: Date; expiresAt: Date } {
    const token = newInvitationToken();
    const sentAt = new Date();
    return { token, tokenHash: invitationTokenHash(token), sentAt, expiresAt: new Date(sentAt.getTime() + this.lifetimeMs) };
  }

  /** A new invitation and its link's token; null when the app has one for this address already (the unique index decides). */
  async create(appId: string, email: string, role: Role, invitedBy: OperatorIdentity): Promise<IssuedInvitation | null> {
    const { token, ...link } = this.newLink();
    const invitation = await this.insertUnlessTaken(appId, {
      _id: newId('inv'),
      email,
      role,
      invitedBy: invitedBy.operatorId,
      invitedByEmail: invitedBy.email,
      createdAt: link.sentAt,
      ...link,
    });
    return invitation ? { invitation, token } : null;
  }

  /** The invitation a link names while it can be accepted (not expired); null for an unknown, used, revoked or expired link alike. */
  byToken(token: string): Promise<InvitationRecord | null> {
    // Across apps: the link is all its guest has (no session, no app), and its token is unique in every app.
    return this.acrossApps
      .findOne({ tokenHash: invitationTokenHash(token), expiresAt: { $gt: new Date() } })
      .lean<InvitationRecord>()
      .exec();
  }

  /** The app's invitations, in the order they were made (expired ones too). */
  list(appId: string): Promise<InvitationRecord[]> {
    return this.collection.find(appId, {}, { sort: { createdAt: 1, _id: 1 } });
  }

  /** A new link for the invitation (re-send): a new token and a new expiry; the link before it is dead. null when there is none. */
  async renew(appId: string, invitationId: string): Promise<IssuedInvitation | null> {
    const { token, ...link } = this.newLink();
    const invitation = await this.collection.findOneAndUpdate(appId, { _id: invitationId }, { $set: link });
    return invitation ? { invitation, token } : null;
  }

  /** Revokes the invitation: its link is dead at once. False when there was none. */
  async revoke(appId: string, invitationId: string): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: invitationId })) === 1;
  }

  /**
   * Uses the invitation up, by the link it was read with: true for exactly
   * one caller; false when it was used, revoked, re-sent (its link changed)
   * or expired in the meantime.
   */
  async take(invitation: InvitationRecord): Promise<boolean> {
    const filter = { _id: invitation._id, tokenHash: invitation.tokenHash, expiresAt: { $gt: new Date() } };
    return (await this.collection.deleteOne(invitation.appId, filter)) === 1;
  }

  /**
   * Puts back an invitation whose acceptance failed after taking it (the
   * database went away), so that its link works again; not when the app
   * has invited the address again since.
   */
  async restore(invitation: InvitationRecord): Promise<void> {
    const { appId, ...rest } = invitation;
    await this.insertUnlessTaken(appId, rest);
  }

  /** The app's invitation of an address goes: the address was made a member another way. */
  async dropFor(appId: string, email: string): Promise<void> {
    await this.collection.deleteMany(appId, { email });
  }
}
