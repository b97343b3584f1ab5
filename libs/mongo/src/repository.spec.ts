import { Schema, type Connection, type Model } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { Repository, declareIndexes, type QueryNames } from './repository';

interface NoteDoc {
  _id: string;
  appId: string;
  author: string;
  text: string;
  at: Date;
}

/** An entity's repository as services write theirs: named queries, its indexes naming them. */
class NoteRepository extends Repository<NoteDoc> {
  constructor(db: Connection) {
    super(noteModel(db));
  }

  write(appId: string, note: Omit<NoteDoc, 'appId'>) {
    return this.insertOrGet(appId, note);
  }

  writeMany(notes: NoteDoc[]) {
    return this.insertNew(notes);
  }

  latestOf(appId: string, author: string) {
    return this.collection.find(appId, { author }, { sort: { at: -1 }, limit: 10 });
  }

  forget(appId: string, author: string) {
    return this.collection.deleteMany(appId, { author });
  }

  /** A system pass over every app. */
  countEverywhere(author: string) {
    return this.acrossApps.countDocuments({ author }).exec();
  }
}

const noteSchema = new Schema<NoteDoc>({ _id: String, appId: String, author: String, text: String, at: Date }, { collection: 'notes', versionKey: false });
declareIndexes<QueryNames<NoteRepository>>(noteSchema, [{ keys: { appId: 1, author: 1, at: -1 }, serves: ['latestOf'] }]);
const noteModel = (db: Connection): Model<NoteDoc> => (db.models.Note as Model<NoteDoc> | undefined) ?? db.model<NoteDoc>('Note', noteSchema);

// On the real database: the idiom every service used to write by hand.
describe('Repository', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let notes: NoteRepository;
  const at = new Date('2026-01-02T03:04:05.000Z');

  beforeAll(async () => {
    db = await testDatabase('repository');
    notes = new NoteRepository(db);
    await notes.ensureIndexes();
  });

  afterAll(() => db.drop());

  it('builds the indexes it declares', async () => {
    const indexes = await db.collection('notes').indexes();
    expect(indexes.map((i) => i.key)).toContainEqual({ appId: 1, author: 1, at: -1 });
  });

  it('inserts once under concurrent writes of one id, and gives every caller the one stored', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => notes.write('app_a', { _id: 'n1', author: 'ann', text: `try ${i}`, at })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)!.doc.text;
    expect(new Set(results.map((r) => r.doc.text))).toEqual(new Set([winner]));
    expect(await db.collection('notes').countDocuments({ _id: 'n1' } as never)).toBe(1);
  });

  it('inserts many of several apps, telling which were new', async () => {
    const note = (appId: string, _id: string): NoteDoc => ({ _id, appId, author: 'bob', text: _id, at });
    expect(await notes.writeMany([note('app_b', 'b1'), note('app_c', 'c1')])).toEqual([true, true]);
    expect(await notes.writeMany([note('app_b', 'b1'), note('app_b', 'b2')])).toEqual([false, true]);
  });

  it("reads an app's documents only", async () => {
    expect(await notes.findById('app_b', 'b1')).toMatchObject({ author: 'bob' });
    expect(await notes.findById('app_c', 'b1')).toBeNull();
    expect((await notes.latestOf('app_b', 'bob')).map((n) => n._id).sort()).toEqual(['b1', 'b2']);
  });

  it("deletes an app's documents only, and reads across apps only where a method says so", async () => {
    expect(await notes.countEverywhere('bob')).toBe(3);
    expect(await notes.forget('app_b', 'bob')).toBe(2);
    expect(await notes.findById('app_c', 'c1')).toMatchObject({ author: 'bob' });
    expect(await notes.countEverywhere('bob')).toBe(1);
  });
});
