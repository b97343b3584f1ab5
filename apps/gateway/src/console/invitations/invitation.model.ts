import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { Role } from '../access/principal';
import type { MemberInvitations } from './member-invitations';

/**
 * An invitation to work in an app, for an e-mail address without an
 * account: accepted once through its link (console/invitations/), which
 * creates the account and the membership. Accepted and revoked ones are
 * deleted; an expired one stays listed until it is re-sent or revoked.
 */
export interface InvitationRecord {
  _id: string;
  appId: string;
  /** Lower-cased, as operators' addresses are. */
  email: string;
  role: Role;
  /** The OWNER who invited, and their address then (what the link's page and the e-mail say). */
  invitedBy: string;
  invitedByEmail: string;
  /** SHA-256 (hex) of the link's token: the token itself is only in the link, so reading the database accepts nothing. */
  tokenHash: string;
  createdAt: Date;
  /** When the current link was made: at the invitation, or at its last re-send (which made the link before it dead). */
  sentAt: Date;
  expiresAt: Date;
}

const invitationSchema = new Schema<InvitationRecord>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    invitedBy: { type: String, required: true },
    invitedByEmail: { type: String, required: true },
    tokenHash: { type: String, required: true },
    createdAt: { type: Date, required: true },
    sentAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'invitations', versionKey: false },
);
declareIndexes<QueryNames<MemberInvitations>>(invitationSchema, [
  { keys: { tokenHash: 1 }, options: { unique: true }, serves: ['byToken'], why: 'the link is all a guest has: its token names one invitation of any app' },
  { keys: { appId: 1, email: 1 }, options: { unique: true }, serves: ['create', 'dropFor'], why: 'one open invitation per app and address' },
  { keys: { appId: 1, createdAt: 1, _id: 1 }, serves: ['list'], why: "the Members page: an app's invitations in the order they were made" },
]);

export const invitationModel = (db: Connection): Model<InvitationRecord> =>
  (db.models.Invitation as Model<InvitationRecord> | undefined) ?? db.model<InvitationRecord>('Invitation', invitationSchema);
