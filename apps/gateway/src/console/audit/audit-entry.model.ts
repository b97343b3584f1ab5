import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '../access/principal';

/**
 * PENDING: written before the change ran (a process that dies during it
 * leaves this); SUCCEEDED: it answered 2xx; UNKNOWN: it failed in a way
 * that does not say whether it took effect (a 5xx, a dependency down). A
 * change refused (4xx) changed nothing, and its entry is removed.
 */
export type AuditOutcome = 'PENDING' | 'SUCCEEDED' | 'UNKNOWN';

/** One change an operator made through a session (console/audit/audit-trail.ts). */
export interface AuditEntryRecord {
  _id: string;
  appId: string;
  at: Date;
  operatorId: string;
  operatorEmail: string;
  /** `<METHOD> <path template>`, e.g. `PATCH /api/v1/campaigns/{campaignId}`. */
  action: string;
  /** The route's summary, e.g. "Update a campaign". */
  summary: string;
  targetType: string | null;
  targetId: string | null;
  /**
   * The resource before and after, secrets redacted, as JSON text: answers
   * carry caller data (metadata) whose keys may hold `.` or start with `$`,
   * which a database field name may not.
   */
  beforeJson: string | null;
  afterJson: string | null;
  outcome: AuditOutcome;
  /** The least role that may read the entry: OWNER for changes to keys and members. */
  readRole: Role;
}

const auditEntrySchema = new Schema<AuditEntryRecord>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    at: { type: Date, required: true },
    operatorId: { type: String, required: true },
    operatorEmail: { type: String, required: true },
    action: { type: String, required: true },
    summary: { type: String, required: true },
    targetType: { type: String, default: null },
    targetId: { type: String, default: null },
    beforeJson: { type: String, default: null },
    afterJson: { type: String, default: null },
    outcome: { type: String, required: true },
    readRole: { type: String, required: true },
  },
  { collection: 'audit_entries', versionKey: false },
);
// The audit page: an app's entries, newest first.
auditEntrySchema.index({ appId: 1, at: -1, _id: -1 });
// The audit page filtered by operator, newest first.
auditEntrySchema.index({ appId: 1, operatorId: 1, at: -1, _id: -1 });
// The audit page filtered by action, newest first.
auditEntrySchema.index({ appId: 1, action: 1, at: -1, _id: -1 });

export const auditEntryModel = (db: Connection): Model<AuditEntryRecord> =>
  (db.models.AuditEntry as Model<AuditEntryRecord> | undefined) ?? db.model<AuditEntryRecord>('AuditEntry', auditEntrySchema);
