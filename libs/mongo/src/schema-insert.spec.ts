import { Schema, type Model, type Types } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { insertAsCreated } from './schema-insert';

interface NoteDoc {
  _id: string;
  appId: string;
  status: 'OPEN' | 'DONE';
  amount: number;
  tags: string[];
  at: Date;
  note: string | null;
}

// Against the real development database (FerretDB v1): what insertAsCreated
// stores must be what Model.create stores, document for document.
describe('insertAsCreated', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let notes: Model<NoteDoc>;
  let versioned: Model<{ _id: Types.ObjectId; name: string }>;
  const at = new Date('2026-03-04T05:06:07.000Z');

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<NoteDoc>(
      {
        _id: { type: String, required: true },
        appId: { type: String, required: true },
        status: { type: String, enum: ['OPEN', 'DONE'], default: 'OPEN' },
        amount: { type: Number, required: true },
        tags: { type: [String], default: [] },
        at: { type: Date, required: true },
        note: { type: String, default: null },
      },
      { collection: 'schema_insert_notes', versionKey: false },
    );
    notes = db.model<NoteDoc>('SchemaInsertNote', schema);
    versioned = db.model('SchemaInsertVersioned', new Schema<{ _id: Types.ObjectId; name: string }>({ name: String }, { collection: 'schema_insert_versioned' }));
    await Promise.all([notes.init(), versioned.init()]);
  });

  afterAll(() => db.drop());

  it('stores and returns the document as create does: defaults filled, values cast, unknown fields dropped', async () => {
    const input = { appId: 'app_1', amount: '12.5', at: at.toISOString(), stray: 'x' };
    const returned = await insertAsCreated(notes, { _id: 'n1', ...input });
    await notes.create({ _id: 'n2', ...input });
    const [mine, theirs] = await Promise.all([notes.findById('n1').lean().exec(), notes.findById('n2').lean().exec()]);
    expect(mine).toEqual({ _id: 'n1', appId: 'app_1', status: 'OPEN', amount: 12.5, tags: [], at, note: null });
    expect({ ...theirs, _id: 'n1' }).toEqual(mine);
    expect(returned).toEqual(mine);
  });

  it('sets the version key and an ObjectId _id where the schema has them, as create does', async () => {
    const returned = await insertAsCreated(versioned, { name: 'a' });
    const created = await versioned.create({ name: 'b' });
    const [mine, theirs] = await Promise.all([versioned.findById(returned._id).lean().exec(), versioned.findById(created._id).lean().exec()]);
    expect(mine).toEqual({ _id: returned._id, name: 'a', __v: 0 });
    expect(Object.keys(theirs ?? {}).sort()).toEqual(Object.keys(mine ?? {}).sort());
  });

  it('refuses an invalid document and writes nothing', async () => {
    await expect(insertAsCreated(notes, { _id: 'bad', appId: 'app_1', amount: 1, at, status: 'LOST' })).rejects.toThrow(/status/);
    await expect(insertAsCreated(notes, { _id: 'bad', appId: 'app_1', at })).rejects.toThrow(/amount/);
    expect(await notes.countDocuments({ _id: 'bad' }).exec()).toBe(0);
  });

  it('raises a duplicate key as the driver reports it, the first document kept', async () => {
    await insertAsCreated(notes, { _id: 'dup', appId: 'app_1', amount: 1, at });
    await expect(insertAsCreated(notes, { _id: 'dup', appId: 'app_1', amount: 2, at })).rejects.toMatchObject({ code: 11000 });
    expect((await notes.findById('dup').lean().exec())?.amount).toBe(1);
  });
});
