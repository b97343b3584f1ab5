import type { Connection, Model } from 'mongoose';
import { insertOnce, newId, type Page, type PageQuery } from '@ris/mongo';
import { operatorModel, type OperatorRecord } from './operator.model';
import { hashPassword } from './password-hash';

/** Operator accounts: the gateway's own data, like apps and keys. */
export class OperatorDirectory {
  private readonly operators: Model<OperatorRecord>;

  constructor(db: Connection) {
    this.operators = operatorModel(db);
  }

  /** A new operator, or null when the email already has an account (the unique index decides between racing creations). */
  async create(input: { email: string; password: string; isAdmin: boolean }): Promise<OperatorRecord | null> {
    const now = new Date();
    const operator: OperatorRecord = {
      _id: newId('opr'),
      email: input.email.toLowerCase(),
      passwordHash: await hashPassword(input.password),
      isAdmin: input.isAdmin,
      lastAppId: null,
      createdAt: now,
      passwordChangedAt: now,
    };
    return (await insertOnce(this.operators, operator)) ? operator : null;
  }

  findById(operatorId: string): Promise<OperatorRecord | null> {
    return this.operators.findById(operatorId).lean<OperatorRecord>().exec();
  }

  findByEmail(email: string): Promise<OperatorRecord | null> {
    return this.operators.findOne({ email: email.toLowerCase() }).lean<OperatorRecord>().exec();
  }

  /** Operators whose ids are given, by id (the members list's emails). */
  async byIds(ids: string[]): Promise<Map<string, OperatorRecord>> {
    if (ids.length === 0) return new Map();
    const found = await this.operators.find({ _id: { $in: ids } }).lean<OperatorRecord[]>().exec();
    return new Map(found.map((o) => [o._id, o]));
  }

  async list(page: PageQuery, email?: string): Promise<Page<OperatorRecord>> {
    const filter = email ? { email: email.toLowerCase() } : {};
    const [items, totalItems] = await Promise.all([
      this.operators
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip((page.page - 1) * page.limit)
        .limit(page.limit)
        .lean<OperatorRecord[]>()
        .exec(),
      this.operators.countDocuments(filter).exec(),
    ]);
    return { items, page: page.page, limit: page.limit, totalItems };
  }

  /** Replaces the password; returns the operator after it, or null when there is none. */
  async setPassword(operatorId: string, password: string): Promise<OperatorRecord | null> {
    const passwordHash = await hashPassword(password);
    return this.operators
      .findOneAndUpdate({ _id: operatorId }, { $set: { passwordHash, passwordChangedAt: new Date() } }, { new: true })
      .lean<OperatorRecord>()
      .exec();
  }

  async setLastApp(operatorId: string, appId: string): Promise<void> {
    await this.operators.updateOne({ _id: operatorId }, { $set: { lastAppId: appId } }).exec();
  }
}
