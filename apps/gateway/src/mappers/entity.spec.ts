import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ReferralSchema, ReferralStatus, type Referral } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';

// The mechanism every gateway entity is declared with: one schema per
// field, read from the message by the field's name unless said otherwise.
describe('entity declarations', () => {
  const Statuses = publicEnum(ReferralStatus);
  const Shape = entity<Referral>()(null, {
    id: z.string(),
    refereeId: z.string().nullable(),
    status: Statuses.field(),
    code: from(z.string(), (r: Referral) => r.referralCode.toLowerCase()),
    createdAt: time(timestamp.nullable()),
  });

  it('reads each field by its name, an unset one as null, in the order declared', () => {
    const at = new Date('2026-11-21T07:54:00.000Z');
    const full = create(ReferralSchema, { id: 'ref_1', refereeId: 'bob', status: ReferralStatus.COMPLETED, referralCode: 'ABCD', createdAt: timestampFromDate(at) });
    expect(JSON.stringify(Shape.json(full))).toBe('{"id":"ref_1","refereeId":"bob","status":"COMPLETED","code":"abcd","createdAt":"2026-11-21T07:54:00.000Z"}');
    expect(Shape.json(create(ReferralSchema, { id: 'ref_2' }))).toEqual({ id: 'ref_2', refereeId: null, status: null, code: '', createdAt: null });
  });

  it('documents what it reads: the schema has the declared fields', () => {
    expect(Object.keys(Shape.schema.shape)).toEqual(['id', 'refereeId', 'status', 'code', 'createdAt']);
    expect(Shape.schema.safeParse({ id: 'x', refereeId: null, status: 'PENDING', code: 'c', createdAt: null }).success).toBe(true);
  });

  it('takes an enum list from the contract: every name but UNSPECIFIED, in order, or a subset; both directions', () => {
    expect(Statuses.names).toEqual(['PENDING', 'COMPLETED']);
    expect([Statuses.name(ReferralStatus.PENDING), Statuses.name(0), Statuses.value('COMPLETED'), Statuses.value(undefined)]).toEqual(['PENDING', null, ReferralStatus.COMPLETED, 0]);
    const Completed = publicEnum(ReferralStatus, ['COMPLETED']);
    expect([Completed.schema.options, Completed.name(ReferralStatus.PENDING)]).toEqual([['COMPLETED'], null]);
  });

  it('nests entities as a field or a list of the same name', () => {
    const Inner = entity<{ a: string }>()(null, { a: z.string() });
    const Outer = entity<{ one?: { a: string }; many: Array<{ a: string }> }>()(null, { one: Inner.field(), many: Inner.list() });
    expect(Outer.json({ many: [{ a: 'x' }] })).toEqual({ one: null, many: [{ a: 'x' }] });
    expect(Outer.json({ one: { a: 'y' }, many: [] })).toEqual({ one: { a: 'y' }, many: [] });
  });
});
