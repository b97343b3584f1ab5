/**
 * The subject a stored signal stands for, which is its key: scoring the
 * same subject again (a retry, a rescore after an outage, or a concurrent
 * attempt) stores nothing new, so velocity rules count it once.
 *
 * A referral is keyed by its referrer and campaign, and a conversion by its
 * referee and campaign, not by the id the caller chose for the attempt:
 * the referral service lets only one referral per referrer and one
 * conversion per referee exist in a campaign, but it scores before it
 * knows whether its attempt wins. Keyed by attempt, every losing attempt of
 * a race (the 409 of a double-submitted conversion) left a signal behind,
 * counted against the referrer's velocity as if it had converted twice.
 */
export const referralSubject = (campaignId: string, referrerId: string) => `REFERRAL:${campaignId}:${referrerId}`;
export const conversionSubject = (campaignId: string, refereeId: string) => `CONVERSION:${campaignId}:${refereeId}`;
export const clickSubject = (clickId: string) => `CLICK:${clickId}`;

const CLICK_PREFIX = clickSubject('');

/** The click id of a click's subject. */
export const clickIdOf = (clickSubjectId: string) => clickSubjectId.slice(CLICK_PREFIX.length);

type Visitor = { refereeId: string | null; deviceId: string | null; ip: string | null };

/** A click by the conversion's visitor: the same referee, device or IP (what FAST_CONVERSION and a flag's evidence look for). */
export const isClickBy = (click: Visitor, conversion: Visitor): boolean =>
  (conversion.refereeId !== null && click.refereeId === conversion.refereeId) ||
  (conversion.deviceId !== null && click.deviceId === conversion.deviceId) ||
  (conversion.ip !== null && click.ip === conversion.ip);

/** A signal's _id: its subject's, under its app, so it is the app's by construction. */
export const storedId = (appId: string, subjectId: string) => `${appId}:${subjectId}`;

/** The subject a stored signal stands for (its _id without the app). */
export const subjectOf = (signal: { _id: string; appId: string }): string => signal._id.slice(signal.appId.length + 1);
