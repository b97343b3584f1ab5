import { REDACTED, redactSecrets } from './redaction';

describe('audit redaction', () => {
  it('replaces every secret field at any depth, in objects and lists, and nothing else', () => {
    const answer = {
      webhook: { id: 'wh_1', url: 'https://example.com/hook', previousSecretExpiresAt: null },
      secret: 'whsec_abc',
      key: { id: 'key_1', apiKey: 'rk_live_xyz', prefix: 'rk_live_xyz' },
      member: { operatorId: 'opr_1', role: 'VIEWER' },
      initialPassword: 'Generated123',
      invitation: { id: 'inv_1', email: 'ann@example.com' },
      inviteUrl: 'https://dash.example.com/dashboard/invite/tok',
      nested: [{ password: 'p' }, { deeper: { newPassword: 'n', currentPassword: 'c', csrfToken: 't' } }],
    };
    expect(redactSecrets(answer)).toEqual({
      webhook: { id: 'wh_1', url: 'https://example.com/hook', previousSecretExpiresAt: null },
      secret: REDACTED,
      key: { id: 'key_1', apiKey: REDACTED, prefix: 'rk_live_xyz' },
      member: { operatorId: 'opr_1', role: 'VIEWER' },
      initialPassword: REDACTED,
      invitation: { id: 'inv_1', email: 'ann@example.com' },
      inviteUrl: REDACTED,
      nested: [{ password: REDACTED }, { deeper: { newPassword: REDACTED, currentPassword: REDACTED, csrfToken: REDACTED } }],
    });
    // The answer itself is left as it was (it is still being sent).
    expect(answer.secret).toBe('whsec_abc');
  });

  it('keeps absent secrets absent and null ones null, and takes any JSON value', () => {
    expect(redactSecrets({ secret: null, apiKey: undefined })).toEqual({ secret: null });
    expect(redactSecrets(undefined)).toBeNull();
    expect(redactSecrets('text')).toBe('text');
    expect(redactSecrets([1, { secret: 's' }])).toEqual([1, { secret: REDACTED }]);
  });

  it('handles an answer nested far deeper than any recursion would', () => {
    let deep: Record<string, unknown> = { secret: 's' };
    for (let i = 0; i < 5_000; i += 1) deep = { next: deep };
    let out = redactSecrets(deep) as Record<string, unknown>;
    while (out.next) out = out.next as Record<string, unknown>;
    expect(out).toEqual({ secret: REDACTED });
  });
});
