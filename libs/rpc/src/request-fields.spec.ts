import { Code } from '@connectrpc/connect';
import { characterCount, pageFromRequest, pageReply, requiredField } from './request-fields';

describe('request fields', () => {
  it('counts characters as the public API does (code points, not UTF-16 units)', () => {
    expect(characterCount('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
    expect(characterCount('')).toBe(0);
  });

  it('trims a required field and refuses a blank one as InvalidArgument', () => {
    expect(requiredField('  app_1 ', 'appId')).toBe('app_1');
    expect(() => requiredField('  ', 'appId')).toThrow(expect.objectContaining({ code: Code.InvalidArgument, rawMessage: 'appId is required' }));
  });

  it('defaults and clamps pages', () => {
    expect(pageFromRequest(undefined)).toEqual({ page: 1, limit: 25 });
    expect(pageFromRequest({ page: 0, limit: 0 })).toEqual({ page: 1, limit: 25 });
    expect(pageFromRequest({ page: 3, limit: 500 })).toEqual({ page: 3, limit: 100 });
    expect(pageFromRequest({ page: -2, limit: -5 })).toEqual({ page: 1, limit: 1 });
  });

  it("replies with a page's position, not its items", () => {
    expect(pageReply({ items: ['a', 'b'], page: 2, limit: 2, totalItems: 5 } as { page: number; limit: number; totalItems: number })).toEqual({
      page: 2,
      limit: 2,
      totalItems: 5,
    });
  });
});
