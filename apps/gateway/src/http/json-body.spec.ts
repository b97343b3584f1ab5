import { MAX_BODY_DEPTH, bodyProblem } from './json-body';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

describe('what a JSON body may be whatever its fields', () => {
  it('takes ordinary bodies, astral characters included', () => {
    expect(bodyProblem({ name: 'Launch 😀', levels: [{ level: 2 }], meta: null })).toBeNull();
    expect(bodyProblem(undefined)).toBeNull();
  });

  it('refuses an unpaired surrogate in a value or a key, naming the field', () => {
    expect(bodyProblem({ rewardId: 'rwd_\ud800', userId: 'u' })).toEqual({ field: 'body.rewardId', message: 'must be valid Unicode (no unpaired surrogate)' });
    expect(bodyProblem({ events: [{ userId: 'ok' }, { userId: '\udc00x' }] })?.field).toBe('body.events[1].userId');
    expect(bodyProblem({ metadata: { 'k\udbff': 1 } })?.field).toBe('body.metadata');
  });

  it(`refuses nesting deeper than ${MAX_BODY_DEPTH} levels without recursing (100,000 levels included)`, () => {
    expect(bodyProblem(nested(MAX_BODY_DEPTH))).toBeNull();
    expect(bodyProblem(nested(MAX_BODY_DEPTH + 1))?.message).toBe(`nests deeper than ${MAX_BODY_DEPTH} levels`);
    expect(bodyProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).not.toBeNull();
  });
});
