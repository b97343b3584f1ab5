import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '../console/access/principal';

/** An operator's role in one app, kept on the app (console/members/app-members.ts). */
export interface MemberRecord {
  operatorId: string;
  role: Role;
  addedAt: Date;
}

/** A tenant: every record in every service belongs to exactly one app. */
export interface AppRecord {
  _id: string;
  name: string;
  createdAt: Date;
  /**
   * The operators of the app. On the app's own document so that a change
   * and the rule it must keep (at least one OWNER) are one document's
   * write. Absent on apps made before operators existed: none.
   */
  members?: MemberRecord[];
  /** members' ids, as a top-level array: the index that finds an operator's apps is on it. */
  operatorIds?: string[];
  /** Bumped by every members change: the compare-and-set of the next one. Absent: 0. */
  membersVersion?: number;
}

const memberSchema = new Schema<MemberRecord>(
  {
    operatorId: { type: String, required: true },
    role: { type: String, required: true },
    addedAt: { type: Date, required: true },
  },
  { _id: false },
);

const appSchema = new Schema<AppRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    createdAt: { type: Date, required: true },
    members: { type: [memberSchema], default: undefined },
    operatorIds: { type: [String], default: undefined },
    membersVersion: { type: Number, default: undefined },
  },
  { collection: 'apps', versionKey: false },
);
// The apps an operator is a member of (sign-in, the session, the console's app list):
// an equality on a top-level array, which FerretDB serves from an index too (a dotted field it would not).
appSchema.index({ operatorIds: 1 });
// Every app, oldest first: an instance administrator's app list.
appSchema.index({ createdAt: 1, _id: 1 });

export const appModel = (db: Connection): Model<AppRecord> =>
  (db.models.App as Model<AppRecord> | undefined) ?? db.model<AppRecord>('App', appSchema);
