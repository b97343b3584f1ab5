import type { Connection, FilterQuery, UpdateQuery } from 'mongoose';
import { DocumentWriteQueue, Repository, type Page, type PageQuery } from '@ris/mongo';
import { participantModel, type ParticipantDoc } from './participant.model';

export type ParticipantOrder = 'USER_ID' | 'REFERRALS' | 'CONVERSIONS' | 'REWARD_VALUE' | 'LAST_ACTIVITY';

export interface ParticipantFilter {
  /** A prefix of the user id, or of the e-mail address (lower case) when it holds an '@'. */
  query?: string;
  /** Only those the incentive engine has (true) or has not (false) seen. */
  engaged?: boolean;
}

const ORDERS: Record<ParticipantOrder, Record<string, 1 | -1>> = {
  USER_ID: { userId: 1 },
  REFERRALS: { referrals: -1, userId: 1 },
  CONVERSIONS: { conversions: -1, userId: 1 },
  REWARD_VALUE: { rewardValue: -1, userId: 1 },
  LAST_ACTIVITY: { lastActivityAt: -1, userId: 1 },
};

/** A prefix as a range of the index: every string that starts with it (no regular expression, which FerretDB runs on every document). */
const prefixRange = (prefix: string) => ({ $gte: prefix, $lt: `${prefix}\u{10FFFF}` });

/** The list's filters as the query: a prefix of the user id or of the e-mail address, and whether the engine has seen them. */
function listQuery(filter: ParticipantFilter): FilterQuery<ParticipantDoc> {
  const query: FilterQuery<ParticipantDoc> = {};
  if (filter.query) {
    if (filter.query.includes('@')) query.email = prefixRange(filter.query.toLowerCase());
    else query.userId = prefixRange(filter.query);
  }
  if (filter.engaged !== undefined) query.engaged = filter.engaged;
  return query;
}

export const participantId = (appId: string, userId: string) => `${appId}:${userId}`;

/** What one write changes of a participant: counters added, fields set, and when they were active. */
export interface ParticipantChange {
  inc?: Partial<Record<'referrals' | 'conversions' | 'rewardValue', number>>;
  set?: Partial<Pick<ParticipantDoc, 'email' | 'referredBy' | 'convertedAt' | 'engaged'>>;
  activeAt: Date;
}

/** The app's people (participant.model.ts): written by _id, one write at a time per person in this process; listed by each order. */
export class ParticipantRepository extends Repository<ParticipantDoc> {
  // FerretDB v1 runs an update as a read and a write: a person's writes go one at a time (and coalesce nothing: they are rare).
  private readonly writes: DocumentWriteQueue<ParticipantDoc>;

  constructor(db: Connection) {
    super(participantModel(db));
    this.writes = new DocumentWriteQueue(this.collection);
  }

  /** Applies a change to the person, who is created by their first one. */
  change(appId: string, userId: string, change: ParticipantChange): Promise<void> {
    const filter = { _id: participantId(appId, userId) };
    const update: UpdateQuery<ParticipantDoc> = {
      $max: { lastActivityAt: change.activeAt },
      $min: { firstSeenAt: change.activeAt },
      $setOnInsert: { userId, ...defaultsBesides(change) },
    };
    if (change.inc && Object.keys(change.inc).length > 0) update.$inc = change.inc;
    if (change.set && Object.keys(change.set).length > 0) update.$set = change.set;
    return this.writes.exclusive(appId, filter, () => this.collection.upsertOne(appId, filter, update));
  }

  page(appId: string, filter: ParticipantFilter, order: ParticipantOrder, page: PageQuery): Promise<Page<ParticipantDoc>> {
    return this.collection.page(appId, listQuery(filter), ORDERS[order], page);
  }

  /** page() of every participant, as a stream (an export). */
  all(appId: string, filter: ParticipantFilter, order: ParticipantOrder): AsyncIterable<ParticipantDoc> {
    return this.collection.stream(appId, listQuery(filter), ORDERS[order]);
  }

  /** Every participant of one app or every app: the recount (a maintenance pass). */
  everyone(appId?: string): AsyncIterable<ParticipantDoc> {
    return this.collection.model
      .find(appId ? { appId } : {})
      .lean<ParticipantDoc>()
      .cursor();
  }

  /** Sets a participant's recounted figures (the recount's fix), created when missing; the times only widen. */
  setRecounted(appId: string, userId: string, figures: Pick<ParticipantDoc, 'referrals' | 'conversions' | 'rewardValue' | 'referredBy' | 'convertedAt'> & { email?: string }, seen: { first: Date; last: Date }): Promise<void> {
    const filter = { _id: participantId(appId, userId) };
    const update: UpdateQuery<ParticipantDoc> = {
      $set: figures,
      $min: { firstSeenAt: seen.first },
      $max: { lastActivityAt: seen.last },
      $setOnInsert: { userId, engaged: false, ...(figures.email === undefined ? { email: null } : {}) },
    };
    return this.writes.exclusive(appId, filter, () => this.collection.upsertOne(appId, filter, update));
  }

  /** These users' records (those the directory holds), one _id read each. */
  async ofUsers(appId: string, userIds: string[]): Promise<ParticipantDoc[]> {
    const found = await Promise.all(userIds.map((userId) => this.collection.findById(appId, participantId(appId, userId))));
    return found.filter((doc): doc is ParticipantDoc => doc !== null);
  }
}

/** The fields a first write creates that it does not set itself (a field may not be in $setOnInsert and another operator both). */
function defaultsBesides(change: ParticipantChange): Partial<ParticipantDoc> {
  const defaults: Partial<ParticipantDoc> = { email: null, referrals: 0, conversions: 0, rewardValue: 0, referredBy: null, convertedAt: null, engaged: false };
  for (const field of [...Object.keys(change.inc ?? {}), ...Object.keys(change.set ?? {})]) delete defaults[field as keyof ParticipantDoc];
  return defaults;
}
