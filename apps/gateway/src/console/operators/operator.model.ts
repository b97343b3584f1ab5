import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A person who signs in to the dashboard. Which apps they work in, and
 * with which role, is kept on each app (members/app-members.ts): the rule
 * "an app keeps at least one OWNER" is then one document's.
 */
export interface OperatorRecord {
  _id: string;
  /** Lower-cased; unique. */
  email: string;
  /** scrypt$N$r$p$salt$hash (password-hash.ts). */
  passwordHash: string;
  /** Instance administrator: every app as OWNER, creates apps. */
  isAdmin: boolean;
  /** The app they switched to last: where they land after signing in. */
  lastAppId: string | null;
  createdAt: Date;
  passwordChangedAt: Date;
}

const operatorSchema = new Schema<OperatorRecord>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    passwordHash: { type: String, required: true },
    isAdmin: { type: Boolean, required: true },
    lastAppId: { type: String, default: null },
    createdAt: { type: Date, required: true },
    passwordChangedAt: { type: Date, required: true },
  },
  { collection: 'operators', versionKey: false },
);
// Sign-in and invitations find an operator by email; one account per address.
operatorSchema.index({ email: 1 }, { unique: true });
// The admin API's list of operators, newest first.
operatorSchema.index({ createdAt: -1, _id: -1 });

export const operatorModel = (db: Connection): Model<OperatorRecord> =>
  (db.models.Operator as Model<OperatorRecord> | undefined) ?? db.model<OperatorRecord>('Operator', operatorSchema);
