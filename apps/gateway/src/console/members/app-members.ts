import type { Connection, Model } from 'mongoose';
import { SerialByKey } from '@ris/mongo';
import { ApiError } from '../../http/api-error';
import { appModel, type AppRecord, type MemberRecord } from '../../tenancy/app.model';
import type { OperatorIdentity, Role } from '../access/principal';

/** What a members change decided: the new list, or why there is none. */
type Change<T> = { members: MemberRecord[]; result: T } | { refused: ApiError };

const notMember = (operatorId: string) => new ApiError(404, 'NOT_FOUND', `Operator ${operatorId} is not a member of this app.`);
const lastOwner = () =>
  new ApiError(409, 'LAST_OWNER', 'An app keeps at least one OWNER: make another member OWNER first.');

/** Compare-and-set attempts of one change before it gives up (other replicas changing the same app's members). */
const ATTEMPTS = 5;

/**
 * Who works in which app, with which role. The members live on the app's
 * document, so every change is one document's write: read the list, decide
 * (at least one OWNER stays), write it back only if nobody changed it
 * since (a version compare-and-set; atomic on MongoDB). FerretDB v1 runs
 * that conditional update as a read and a write, so this process's
 * changes to one app also run one after another (SerialByKey): correct on
 * its single replica as well.
 */
export class AppMembers {
  private readonly apps: Model<AppRecord>;
  private readonly serial = new SerialByKey();

  constructor(db: Connection) {
    this.apps = appModel(db);
  }

  /** One lone-_id read: the app's members (and whether it exists). */
  private app(appId: string): Promise<AppRecord | null> {
    return this.apps.collection.findOne({ _id: appId } as never) as Promise<AppRecord | null>;
  }

  /** The operator's role in the app: OWNER for an instance administrator (if the app exists); null when they may not enter it. */
  async roleOf(operator: OperatorIdentity, appId: string): Promise<Role | null> {
    const app = await this.app(appId);
    if (!app) return null;
    if (operator.isAdmin) return 'OWNER';
    return app.members?.find((m) => m.operatorId === operator.operatorId)?.role ?? null;
  }

  /** The apps the operator may enter with their role, oldest first (every app for an administrator). */
  async appsOf(operator: OperatorIdentity): Promise<Array<{ id: string; name: string; role: Role }>> {
    const filter = operator.isAdmin ? {} : { operatorIds: operator.operatorId };
    const apps = await this.apps.find(filter).sort({ createdAt: 1, _id: 1 }).lean<AppRecord[]>().exec();
    return apps.map((app) => ({
      id: app._id,
      name: app.name,
      role: operator.isAdmin ? 'OWNER' : (app.members?.find((m) => m.operatorId === operator.operatorId)?.role ?? 'VIEWER'),
    }));
  }

  /** The app's members, in the order they were added; null when there is no such app. */
  async list(appId: string): Promise<MemberRecord[] | null> {
    const app = await this.app(appId);
    return app ? (app.members ?? []) : null;
  }

  async get(appId: string, operatorId: string): Promise<MemberRecord | null> {
    return (await this.list(appId))?.find((m) => m.operatorId === operatorId) ?? null;
  }

  /** Adds the operator with the role; 409 ALREADY_EXISTS when they are a member already. */
  add(appId: string, operatorId: string, role: Role): Promise<MemberRecord> {
    return this.change<MemberRecord>(appId, (members) => {
      if (members.some((m) => m.operatorId === operatorId)) {
        return { refused: new ApiError(409, 'ALREADY_EXISTS', `Operator ${operatorId} is already a member of this app.`) };
      }
      const member: MemberRecord = { operatorId, role, addedAt: new Date() };
      return { members: [...members, member], result: member };
    });
  }

  /** Adds the operator or changes their role (the admin API's PUT); the last OWNER is not demoted. */
  put(appId: string, operatorId: string, role: Role): Promise<MemberRecord> {
    return this.change<MemberRecord>(appId, (members) => {
      const existing = members.find((m) => m.operatorId === operatorId);
      if (!existing) {
        const member: MemberRecord = { operatorId, role, addedAt: new Date() };
        return { members: [...members, member], result: member };
      }
      return withRole(members, existing, role);
    });
  }

  /** Changes a member's role; 404 when not a member, 409 LAST_OWNER when it would leave the app without one. */
  setRole(appId: string, operatorId: string, role: Role): Promise<MemberRecord> {
    return this.change<MemberRecord>(appId, (members) => {
      const existing = members.find((m) => m.operatorId === operatorId);
      return existing ? withRole(members, existing, role) : { refused: notMember(operatorId) };
    });
  }

  /** Removes a member; 404 when not a member, 409 LAST_OWNER for the app's only OWNER. */
  remove(appId: string, operatorId: string): Promise<MemberRecord> {
    return this.change<MemberRecord>(appId, (members) => {
      const existing = members.find((m) => m.operatorId === operatorId);
      if (!existing) return { refused: notMember(operatorId) };
      if (existing.role === 'OWNER' && !members.some((m) => m.role === 'OWNER' && m !== existing)) return { refused: lastOwner() };
      return { members: members.filter((m) => m !== existing), result: existing };
    });
  }

  private change<T>(appId: string, decide: (members: MemberRecord[]) => Change<T>): Promise<T> {
    return this.serial.run(appId, async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const app = await this.app(appId);
        if (!app) throw new ApiError(404, 'NOT_FOUND', `App ${appId} not found`);
        const decided = decide(app.members ?? []);
        if ('refused' in decided) throw decided.refused;
        const version = app.membersVersion;
        const written = await this.apps.collection.updateOne(
          { _id: appId, membersVersion: version === undefined ? { $exists: false } : version } as never,
          {
            $set: {
              members: decided.members,
              operatorIds: decided.members.map((m) => m.operatorId),
              membersVersion: (version ?? 0) + 1,
            },
          },
        );
        if (written.matchedCount === 1) return decided.result;
      }
      throw new ApiError(409, 'CONFLICT', "The app's members are being changed by another request; retry.");
    });
  }
}

function withRole(members: MemberRecord[], existing: MemberRecord, role: Role): Change<MemberRecord> {
  if (existing.role === 'OWNER' && role !== 'OWNER' && !members.some((m) => m.role === 'OWNER' && m !== existing)) {
    return { refused: lastOwner() };
  }
  const updated = { ...existing, role };
  return { members: members.map((m) => (m === existing ? updated : m)), result: updated };
}
