import { secretTraces } from './secret-traces';

describe('secretTraces', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');

  it('finds a secret in every form, at any depth, with where it was', () => {
    const docs = [
      { _id: 'a', secret },
      { _id: 'b', nested: { list: [{ note: `prefix ${secret.slice(6)} suffix` }] } },
      { _id: 'c', encoded: Buffer.from(secret).toString('base64') },
      { _id: 'd', hex: key.toString('hex') },
      { _id: 'e', url: key.toString('base64url') },
      { _id: 'f', raw: key },
      { _id: 'g', bson: { _bsontype: 'Binary', buffer: new Uint8Array(Buffer.concat([Buffer.from([1]), key])) } },
      { _id: 'h', [secret.slice(6).replace(/\//g, '_')]: 1, key: 'x' },
    ];
    expect(secretTraces(docs, secret)).toEqual([
      '$.0.secret',
      '$.1.nested.list.0.note',
      '$.2.encoded',
      '$.3.hex',
      '$.4.url',
      '$.5.raw',
      '$.6.bson',
      '$.7 (key)',
    ]);
  });

  it('finds nothing where the secret is not', () => {
    expect(secretTraces([{ secret: 'whsec_other', at: new Date(), n: 1, none: null, key: key.subarray(0, 8) }], secret)).toEqual([]);
  });
});
