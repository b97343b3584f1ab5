import type { ConversionDoc, ConversionStatusName } from './conversion.model';

/**
 * A level-1 record whose referee converted: CONVERTED, FLAGGED (waiting for
 * review), REJECTED (the review rejected it) or REVERSED (refunded in full). The referee has used their
 * one conversion in the campaign in each case.
 */
export const CONVERTED: readonly ConversionStatusName[] = ['CONVERTED', 'FLAGGED', 'REJECTED', 'REVERSED'];

/**
 * A conversion that counts in the figures (campaign totals, time buckets,
 * the referrer's totals): converted and not rejected. An open flag counts
 * until it is decided. A reversed one still counts as a conversion: it
 * happened (its reward value is what reversals left, its reversal counts
 * as one).
 */
export const COUNTED: readonly ConversionStatusName[] = ['CONVERTED', 'FLAGGED', 'REVERSED'];

/** A funnel record before its conversion: the referee known (PENDING), or their click (CLICKED). */
export const NOT_CONVERTED: readonly ConversionStatusName[] = ['PENDING', 'CLICKED'];

export const isConverted = (record: Pick<ConversionDoc, 'status'>): boolean => CONVERTED.includes(record.status);

/** When a converted record counts in its campaign's time buckets: its conversion. */
export const countedAt = (record: Pick<ConversionDoc, 'convertedAt' | 'createdAt'>): Date => record.convertedAt ?? record.createdAt;
