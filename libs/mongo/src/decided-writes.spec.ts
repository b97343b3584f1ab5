import { Schema, type Connection, type Model } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { AppScoped } from './app-scoped';
import { isDuplicateKeyError } from './connect-mongo';
import { Repository } from './repository';
import { SerialByKey } from './serial-by-key';

interface SlotDoc {
  _id: string;
  appId: string;
  /** Unique across the collection: a duplicate on another key than _id. */
  code: string;
  seq?: number;
  v?: string;
}

const slotSchema = new Schema<SlotDoc>({ _id: String, appId: String, code: String, seq: Number, v: String }, { collection: 'slots', versionKey: false });
slotSchema.index({ code: 1 }, { unique: true });
const slotModel = (db: Connection): Model<SlotDoc> => (db.models.Slot as Model<SlotDoc> | undefined) ?? db.model<SlotDoc>('Slot', slotSchema);

/** A repository using the base class's decided inserts, as services do. */
class SlotRepository extends Repository<SlotDoc> {
  constructor(db: Connection) {
    super(slotModel(db));
  }

  store(docs: SlotDoc[]) {
    return this.insertNewIfKnown(docs);
  }

  fill(docs: SlotDoc[]) {
    return this.insertInOrder(docs);
  }
}

const slot = (appId: string, _id: string, code = `code_${_id}`, v = `v_${_id}`): SlotDoc => ({ _id, appId, code, v });

/** What the rejection was, or null when the write succeeded. */
const refusal = (write: Promise<unknown>) => write.then(() => null, (err: unknown) => err);

// Against the real development database (FerretDB v1): the decided writes
// the services rely on, each held to what its comment promises.
describe('decided writes (AppScoped, Repository)', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let slots: AppScoped<SlotDoc>;
  let repository: SlotRepository;

  /** The stored documents whose _id starts with `prefix`, as [_id, appId, code, v], by _id. */
  const stored = async (prefix: string) => {
    const docs = await slots.model
      .find({ _id: { $regex: `^${prefix}` } })
      .sort({ _id: 1 })
      .lean<SlotDoc[]>()
      .exec();
    return docs.map((d) => [d._id, d.appId, d.code, d.v]);
  };

  beforeAll(async () => {
    db = await testDatabase('mongo');
    repository = new SlotRepository(db);
    await repository.ensureIndexes();
    slots = new AppScoped(slotModel(db));
  });

  afterAll(() => db.drop());

  describe('insertManyNewIfKnown', () => {
    it('inserts documents of several apps in one write, answering true for each', async () => {
      expect(await slots.insertManyNewIfKnown([slot('app_a', 'new1'), slot('app_b', 'new2'), slot('app_a', 'new3')])).toEqual([true, true, true]);
      expect(await stored('new')).toEqual([
        ['new1', 'app_a', 'code_new1', 'v_new1'],
        ['new2', 'app_b', 'code_new2', 'v_new2'],
        ['new3', 'app_a', 'code_new3', 'v_new3'],
      ]);
    });

    it('goes on past duplicates (_id or another unique key) and says which went in; the ones there stay as they were', async () => {
      await slots.insertMany([slot('app_a', 'dup1'), slot('app_a', 'dup2')]);
      const result = await slots.insertManyNewIfKnown([
        slot('app_a', 'dup0'),
        slot('app_a', 'dup1', 'code_other', 'overwritten?'),
        slot('app_a', 'dup3', 'code_dup2'),
        slot('app_a', 'dup4'),
      ]);
      expect(result).toEqual([true, false, false, true]);
      expect(await stored('dup')).toEqual([
        ['dup0', 'app_a', 'code_dup0', 'v_dup0'],
        ['dup1', 'app_a', 'code_dup1', 'v_dup1'],
        ['dup2', 'app_a', 'code_dup2', 'v_dup2'],
        ['dup4', 'app_a', 'code_dup4', 'v_dup4'],
      ]);
    });

    it('answers [false] for a lone document that is there, and [] for none', async () => {
      await slots.insertMany([slot('app_a', 'lone')]);
      expect(await slots.insertManyNewIfKnown([slot('app_a', 'lone', 'code_lone2')])).toEqual([false]);
      expect(await slots.insertManyNewIfKnown([])).toEqual([]);
      expect(await stored('lone')).toEqual([['lone', 'app_a', 'code_lone', 'v_lone']]);
    });

    it("never overwrites another app's document under the same _id", async () => {
      await slots.insertMany([slot('app_a', 'tenant1')]);
      expect(await slots.insertManyNewIfKnown([slot('app_b', 'tenant1', 'code_tenant1_b', 'by app_b'), slot('app_b', 'tenant2')])).toEqual([false, true]);
      expect(await slots.findById('app_a', 'tenant1')).toMatchObject({ appId: 'app_a', v: 'v_tenant1' });
      expect(await slots.findById('app_b', 'tenant1')).toBeNull();
    });

    it('raises a failure that is not a duplicate key, also when a duplicate comes before it in the batch', async () => {
      await slots.insertMany([slot('app_a', 'bad1')]);
      // A field name the store refuses: a failure of that document, not a duplicate.
      const invalid = { ...slot('app_a', 'bad2'), $bad: 1 } as SlotDoc;
      // The store's error then bears the duplicate's code (its first failure): raised all the same, never null.
      await expect(slots.insertManyNewIfKnown([slot('app_a', 'bad1'), invalid, slot('app_a', 'bad3')])).rejects.toThrow('E11000');
      await expect(slots.insertManyNewIfKnown([invalid, slot('app_a', 'bad1')])).rejects.toThrow(/\$bad/);
      // Unordered: the valid document beside them went in all the same.
      expect((await stored('bad')).map(([id]) => id)).toEqual(['bad1', 'bad3']);
    });

    it('refuses a document without its appId before writing anything', async () => {
      await expect(slots.insertManyNewIfKnown([slot('app_a', 'noapp1'), slot('', 'noapp2')])).rejects.toThrow('appId is required');
      expect(await stored('noapp')).toEqual([]);
    });

    it('answers null for several documents, [false] for one, when the store reports a duplicate without saying which', async () => {
      // FerretDB names every duplicate of an insert (above); it reports a
      // duplicate of an update as its backend's error, naming none: that
      // real error, raised by the insert, stands for such a store.
      await slots.insertMany([slot('app_a', 'unsaid1'), slot('app_a', 'unsaid2')]);
      const unsaid = await refusal(slots.updateOne('app_a', { _id: 'unsaid2' }, { $set: { code: 'code_unsaid1' } }));
      expect(isDuplicateKeyError(unsaid)).toBe(true);
      const scoped = new AppScoped(slotModel(db));
      scoped.insertMany = () => Promise.reject(unsaid);
      expect(await scoped.insertManyNewIfKnown([slot('app_a', 'unsaid3'), slot('app_a', 'unsaid4')])).toBeNull();
      expect(await scoped.insertManyNewIfKnown([slot('app_a', 'unsaid3')])).toEqual([false]);
    });

    it("is the repository's insertNewIfKnown", async () => {
      await slots.insertMany([slot('app_a', 'repo1')]);
      expect(await repository.store([slot('app_a', 'repo1'), slot('app_a', 'repo2')])).toEqual([false, true]);
    });
  });

  describe('findIds', () => {
    it("answers the _ids of the app's matching documents only", async () => {
      await slots.insertManyNew([slot('app_ids', 'ids1', 'ids_c1', 'batch'), slot('app_ids', 'ids2', 'ids_c2', 'batch'), slot('app_ids', 'ids3', 'ids_c3', 'other'), slot('app_ids_other', 'ids4', 'ids_c4', 'batch')]);
      expect((await slots.findIds('app_ids', { v: 'batch' })).sort()).toEqual(['ids1', 'ids2']);
      expect(await slots.findIds('app_ids', { v: 'none' })).toEqual([]);
    });
  });

  describe('insertInOrder', () => {
    it('inserts every document when none is taken', async () => {
      expect(await slots.insertInOrder([slot('app_a', 'ord_a1'), slot('app_a', 'ord_a2'), slot('app_a', 'ord_a3')])).toBe(true);
      expect((await stored('ord_a')).map(([id]) => id)).toEqual(['ord_a1', 'ord_a2', 'ord_a3']);
    });

    it('stops at the first duplicate _id: false, those before it in, it and those after it not', async () => {
      await slots.insertMany([slot('app_a', 'ord_b2')]);
      const docs = [slot('app_a', 'ord_b1'), slot('app_a', 'ord_b2', 'code_ord_b2x', 'mine'), slot('app_a', 'ord_b3')];
      expect(await slots.insertInOrder(docs)).toBe(false);
      expect(await stored('ord_b')).toEqual([
        ['ord_b1', 'app_a', 'code_ord_b1', 'v_ord_b1'],
        ['ord_b2', 'app_a', 'code_ord_b2', 'v_ord_b2'],
      ]);
    });

    it('stops at a duplicate of another unique key the same way', async () => {
      await slots.insertMany([slot('app_a', 'ord_c0', 'code_taken')]);
      expect(await slots.insertInOrder([slot('app_a', 'ord_c1'), slot('app_a', 'ord_c2', 'code_taken'), slot('app_a', 'ord_c3')])).toBe(false);
      expect((await stored('ord_c')).map(([id]) => id)).toEqual(['ord_c0', 'ord_c1']);
    });

    it('says how far it got (insertedInOrder): all, or those before the duplicate that stopped it', async () => {
      expect(await slots.insertedInOrder([slot('app_a', 'ord_g1'), slot('app_a', 'ord_g2')])).toBe(2);
      await slots.insertMany([slot('app_a', 'ord_g4')]);
      expect(await slots.insertedInOrder([slot('app_a', 'ord_g3'), slot('app_a', 'ord_g4', 'code_ord_g4x'), slot('app_a', 'ord_g5')])).toBe(1);
      expect(await slots.insertedInOrder([slot('app_a', 'ord_g1', 'code_ord_g1x')])).toBe(0);
      expect((await stored('ord_g')).map(([id]) => id)).toEqual(['ord_g1', 'ord_g2', 'ord_g3', 'ord_g4']);
    });

    it("stops at another app's document under the same _id, which stays as it was", async () => {
      await slots.insertMany([slot('app_b', 'ord_d2')]);
      expect(await slots.insertInOrder([slot('app_a', 'ord_d1'), slot('app_a', 'ord_d2', 'code_ord_d2x', 'app_a'), slot('app_a', 'ord_d3')])).toBe(false);
      expect(await stored('ord_d')).toEqual([
        ['ord_d1', 'app_a', 'code_ord_d1', 'v_ord_d1'],
        ['ord_d2', 'app_b', 'code_ord_d2', 'v_ord_d2'],
      ]);
    });

    it('raises a failure that is not a duplicate key', async () => {
      const invalid = { ...slot('app_a', 'ord_e2'), $bad: 1 } as SlotDoc;
      await expect(slots.insertInOrder([slot('app_a', 'ord_e1'), invalid, slot('app_a', 'ord_e3')])).rejects.toThrow(/\$bad/);
      expect((await stored('ord_e')).map(([id]) => id)).toEqual(['ord_e1']);
    });

    it("is the repository's insertInOrder", async () => {
      expect(await repository.fill([slot('app_a', 'ord_f1'), slot('app_a', 'ord_f2')])).toBe(true);
      expect(await repository.fill([slot('app_a', 'ord_f2'), slot('app_a', 'ord_f3')])).toBe(false);
      expect((await stored('ord_f')).map(([id]) => id)).toEqual(['ord_f1', 'ord_f2']);
    });
  });

  describe('compareAndSet', () => {
    it('creates the first version when asked to (upsert), as the app\'s document', async () => {
      expect(await slots.compareAndSet('app_a', { _id: 'cas1', seq: 0 }, { $set: { seq: 1, code: 'code_cas1', v: 'first' } }, { upsert: true })).toBe(true);
      expect(await slots.findById('app_a', 'cas1')).toEqual({ _id: 'cas1', appId: 'app_a', seq: 1, code: 'code_cas1', v: 'first' });
    });

    it('moves a document from the version it was read at, and refuses a stale version (upsert or not), leaving it as it was', async () => {
      await slots.create('app_a', { _id: 'cas2', code: 'code_cas2', seq: 1, v: 'one' });
      expect(await slots.compareAndSet('app_a', { _id: 'cas2', seq: 1 }, { $set: { seq: 2, v: 'two' } })).toBe(true);
      expect(await slots.compareAndSet('app_a', { _id: 'cas2', seq: 1 }, { $set: { seq: 2, v: 'stale' } })).toBe(false);
      expect(await slots.compareAndSet('app_a', { _id: 'cas2', seq: 0 }, { $set: { seq: 1, v: 'stale first' } }, { upsert: true })).toBe(false);
      expect(await slots.findById('app_a', 'cas2')).toMatchObject({ seq: 2, v: 'two' });
    });

    it('answers true when the filter matched, even if the update changed nothing', async () => {
      await slots.create('app_a', { _id: 'cas3', code: 'code_cas3', seq: 4, v: 'same' });
      expect(await slots.compareAndSet('app_a', { _id: 'cas3', seq: 4 }, { $set: { v: 'same' } })).toBe(true);
    });

    it('creates nothing without upsert: false for a document that is not there', async () => {
      expect(await slots.compareAndSet('app_a', { _id: 'cas4', seq: 0 }, { $set: { seq: 1 } })).toBe(false);
      expect(await slots.model.countDocuments({ _id: 'cas4' }).exec()).toBe(0);
    });

    it('lets exactly one of concurrent first writers create the document; the others read false', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => slots.compareAndSet('app_a', { _id: 'cas5', seq: 0 }, { $set: { seq: 1, code: 'code_cas5', v: `writer ${i}` } }, { upsert: true })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await slots.findById('app_a', 'cas5')).toMatchObject({ seq: 1, v: `writer ${results.indexOf(true)}` });
    });

    it('lets exactly one of concurrent writers at one version move an existing document, when run one at a time per document', async () => {
      await slots.create('app_a', { _id: 'cas8', code: 'code_cas8', seq: 1, v: 'one' });
      const serial = new SerialByKey();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => serial.run('cas8', () => slots.compareAndSet('app_a', { _id: 'cas8', seq: 1 }, { $set: { seq: 2, v: `writer ${i}` } }))),
      );
      expect(results).toEqual(results.map((_, i) => i === 0));
      expect(await slots.findById('app_a', 'cas8')).toMatchObject({ seq: 2, v: 'writer 0' });
    });

    it("never matches nor overwrites another app's document, and creates none beside it", async () => {
      await slots.create('app_a', { _id: 'cas6', code: 'code_cas6', seq: 1, v: 'app_a' });
      expect(await slots.compareAndSet('app_b', { _id: 'cas6', seq: 1 }, { $set: { seq: 2, v: 'app_b' } })).toBe(false);
      expect(await slots.compareAndSet('app_b', { _id: 'cas6', seq: 1 }, { $set: { seq: 2, v: 'app_b' } }, { upsert: true })).toBe(false);
      expect(await slots.compareAndSet('app_b', { code: 'code_cas6' }, { $set: { v: 'app_b' } })).toBe(false);
      expect(await slots.model.find({ _id: 'cas6' }).lean().exec()).toEqual([{ _id: 'cas6', appId: 'app_a', code: 'code_cas6', seq: 1, v: 'app_a' }]);
    });

    it('raises a failure that is not a duplicate key, and refuses to run without the app', async () => {
      await slots.create('app_a', { _id: 'cas7', code: 'code_cas7', seq: 1, v: 'text' });
      await expect(slots.compareAndSet('app_a', { _id: 'cas7', seq: 1 }, { $inc: { v: 1 } } as never)).rejects.toThrow();
      await expect(slots.compareAndSet('', { _id: 'cas7', seq: 1 }, { $set: { seq: 2 } })).rejects.toThrow('appId is required');
      expect(await slots.findById('app_a', 'cas7')).toMatchObject({ seq: 1, v: 'text' });
    });
  });
});
