import { create } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { CatalogItemSchema } from '@ris/contracts';
import { messageFields } from './message-fields';

describe('messageFields', () => {
  it("gives a document's fields as a message takes them: dates as Timestamps, null unset, _id and appId left out", () => {
    const at = new Date('2026-11-21T07:54:00.000Z');
    const doc = { _id: 'itm_1', appId: 'app_1', name: 'Mug', description: '', coinCost: 5, tokenCost: 0, inventory: -1, published: true, deletedAt: null as Date | null, createdAt: at };
    const fields = messageFields(doc);
    expect(Object.keys(fields)).toEqual(['name', 'description', 'coinCost', 'tokenCost', 'inventory', 'published', 'deletedAt', 'createdAt']);
    expect(fields.deletedAt).toBeUndefined();
    expect(timestampDate(fields.createdAt)).toEqual(at);
    // What the message does not have (deletedAt) stays out of it.
    const item = create(CatalogItemSchema, { ...fields, id: doc._id });
    expect(item).toMatchObject({ id: 'itm_1', name: 'Mug', coinCost: 5, inventory: -1, published: true });
    expect('deletedAt' in item).toBe(false);
  });
});
