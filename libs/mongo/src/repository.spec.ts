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

  /** Rewrites the text of those notes that are still the author's. */
  reword(appId: string, author: string, ids: string[], text: string) {
    return this.collection.updateEach(appId, ids, { author }, { $set: { text } });
  }

  /** A system pass over every app. */
  countEverywhere(author: string) {
    return this.acrossApps.countDocuments({ author }).exec();
  }
}

const noteSchema = new Schema<NoteDoc>({ _id: String, appId: String, author: String, text: String, at: Date }, { collection: 'notes', versionKey: false });
declareIndexes<QueryNames<NoteRepository>>(noteSchema, [{ keys: { appId: 1, author: 1, at: -1 }, serves: ['latestOf'] }]);
const noteModel = (db: Connection): Model<NoteDoc> => (db.models.Note as Model<NoteDoc> | undefined) ?? db.model<NoteDoc>('Note', noteSchema);

interface VoteDoc {
  _id: string;
  appId: string;
  poll: string;
  voter: string;
  choice: string;
}

/** An entity unique by another key than its _id: one vote per voter and poll, under a random id. */
class VoteRepository extends Repository<VoteDoc> {
  constructor(db: Connection) {
    super(voteModel(db));
  }

  cast(appId: string, vote: Omit<VoteDoc, 'appId'>) {
    return this.insertOrFind(appId, vote, () => this.ofVoter(appId, vote.poll, vote.voter));
  }

  castUnlessVoted(appId: string, vote: Omit<VoteDoc, 'appId'>) {
    return this.insertUnlessTaken(appId, vote);
  }

  ofVoter(appId: string, poll: string, voter: string) {
    return this.collection.findOne(appId, { poll, voter });
  }
}

const voteSchema = new Schema<VoteDoc>({ _id: String, appId: String, poll: String, voter: String, choice: String }, { collection: 'votes', versionKey: false });
declareIndexes<QueryNames<VoteRepository>>(voteSchema, [{ keys: { appId: 1, poll: 1, voter: 1 }, options: { unique: true }, serves: ['ofVoter', 'cast', 'castUnlessVoted'] }]);
const voteModel = (db: Connection): Model<VoteDoc> => (db.models.Vote as Model<VoteDoc> | undefined) ?? db.model<VoteDoc>('Vote', voteSchema);

// On the real database: the idiom every service used to write by hand.
describe('Repository', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let notes: NoteRepository;
  const at = new Date('2026-01-02T03:04:05.000Z');

  let votes: VoteRepository;

  beforeAll(async () => {
    db = await testDatabase('repository');
    notes = new NoteRepository(db);
    votes = new VoteRepository(db);
    await Promise.all([notes.ensureIndexes(), votes.ensureIndexes()]);
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

  it('inserts once by another unique key than _id under concurrent writes, and gives every caller the one stored', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => votes.cast('app_a', { _id: `vote_${i}`, poll: 'p1', voter: 'ann', choice: `c${i}` })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)!.doc;
    expect(results.map((r) => r.doc._id)).toEqual(results.map(() => winner._id));
    expect(await db.collection('votes').countDocuments({ poll: 'p1', voter: 'ann' })).toBe(1);
    // Another app's voter of the same name votes on its own.
    expect((await votes.cast('app_b', { _id: 'vote_b', poll: 'p1', voter: 'ann', choice: 'x' })).created).toBe(true);
  });

  it('inserts unless the unique key is taken: null then, the one there untouched', async () => {
    expect(await votes.castUnlessVoted('app_a', { _id: 'vote_x', poll: 'p2', voter: 'bob', choice: 'yes' })).toMatchObject({ _id: 'vote_x', appId: 'app_a' });
    expect(await votes.castUnlessVoted('app_a', { _id: 'vote_y', poll: 'p2', voter: 'bob', choice: 'no' })).toBeNull();
    expect(await votes.castUnlessVoted('app_a', { _id: 'vote_x', poll: 'p3', voter: 'bob', choice: 'no' })).toBeNull();
    expect(await votes.ofVoter('app_a', 'p2', 'bob')).toMatchObject({ _id: 'vote_x', choice: 'yes' });
  });

  it('updates each of a list of ids under a guard, in one call: only the app\'s, only those the guard still matches, and says how many', async () => {
    const note = (appId: string, _id: string, author: string): NoteDoc => ({ _id, appId, author, text: 'old', at });
    await notes.writeMany([note('app_e', 'e1', 'eve'), note('app_e', 'e2', 'eve'), note('app_e', 'e3', 'sam'), note('app_f', 'f1', 'eve')]);
    // e3 fails the guard, f1 is another app's, e9 does not exist.
    expect(await notes.reword('app_e', 'eve', ['e1', 'e2', 'e3', 'f1', 'e9'], 'new')).toBe(2);
    const texts = await db.collection<NoteDoc>('notes').find({ _id: { $in: ['e1', 'e2', 'e3', 'f1'] } }).sort({ _id: 1 }).toArray();
    expect(texts.map((n) => [n._id, n.text])).toEqual([['e1', 'new'], ['e2', 'new'], ['e3', 'old'], ['f1', 'old']]);
    expect(await notes.reword('app_e', 'eve', [], 'newer')).toBe(0);
  });

  it("deletes an app's documents only, and reads across apps only where a method says so", async () => {
    expect(await notes.countEverywhere('bob')).toBe(3);
    expect(await notes.forget('app_b', 'bob')).toBe(2);
    expect(await notes.findById('app_c', 'c1')).toMatchObject({ author: 'bob' });
    expect(await notes.countEverywhere('bob')).toBe(1);
  });
});
