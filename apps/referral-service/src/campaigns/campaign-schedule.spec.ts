import { effectiveStatus, scheduleProblem, type ScheduledCampaign } from './campaign-schedule';

const at = new Date('2026-06-15T12:00:00.000Z');
const before = new Date('2026-06-01T00:00:00.000Z');
const after = new Date('2026-07-01T00:00:00.000Z');
const campaign = (status: ScheduledCampaign['status'], startsAt: Date | null = null, endsAt: Date | null = null): ScheduledCampaign => ({ status, startsAt, endsAt });

describe('a campaign’s effective status', () => {
  it('is the stored status without a schedule', () => {
    expect(['ACTIVE', 'PAUSED', 'ENDED'].map((s) => effectiveStatus(campaign(s as ScheduledCampaign['status']), at))).toEqual(['ACTIVE', 'PAUSED', 'ENDED']);
  });

  it('is SCHEDULED for an ACTIVE campaign before its start, ACTIVE from the start on (inclusive)', () => {
    expect(effectiveStatus(campaign('ACTIVE', after), at)).toBe('SCHEDULED');
    expect(effectiveStatus(campaign('ACTIVE', at), at)).toBe('ACTIVE');
    expect(effectiveStatus(campaign('ACTIVE', before, after), at)).toBe('ACTIVE');
  });

  it('is ENDED from the end on (exclusive), whatever the stored status', () => {
    expect(effectiveStatus(campaign('ACTIVE', null, at), at)).toBe('ENDED');
    expect(effectiveStatus(campaign('ACTIVE', null, before), at)).toBe('ENDED');
    expect(effectiveStatus(campaign('PAUSED', null, before), at)).toBe('ENDED');
    expect(effectiveStatus(campaign('ACTIVE', null, after), at)).toBe('ACTIVE');
  });

  it('keeps the operator’s PAUSED or ENDED before the start', () => {
    expect(effectiveStatus(campaign('PAUSED', after), at)).toBe('PAUSED');
    expect(effectiveStatus(campaign('ENDED', after), at)).toBe('ENDED');
  });
});

describe('a schedule’s problem', () => {
  it('is an end not after the start, when both are set', () => {
    expect(scheduleProblem({ startsAt: before, endsAt: after })).toBeNull();
    expect(scheduleProblem({ startsAt: after, endsAt: before })).toEqual({ field: 'endsAt', message: 'endsAt must be after startsAt' });
    expect(scheduleProblem({ startsAt: at, endsAt: at })?.field).toBe('endsAt');
    expect(scheduleProblem({ startsAt: after, endsAt: null })).toBeNull();
    expect(scheduleProblem({ startsAt: null, endsAt: before })).toBeNull();
  });

  it('is a bound outside the years 0001 to 9999 (UTC), which no answer could write', () => {
    expect(scheduleProblem({ startsAt: new Date('0001-01-01T00:00:00Z'), endsAt: new Date('9999-12-31T23:59:59.999Z') })).toBeNull();
    expect(scheduleProblem({ startsAt: new Date('0000-12-31T23:59:59.999Z'), endsAt: null })?.field).toBe('startsAt');
    expect(scheduleProblem({ startsAt: null, endsAt: new Date('9999-12-31T23:59:00-01:00') })?.field).toBe('endsAt');
  });
});
