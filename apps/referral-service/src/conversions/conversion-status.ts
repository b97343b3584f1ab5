import type { ConversionDoc, ConversionStatusName } from './conversion.model';

/** A level-1 record that converted: CONVERTED, or FLAGGED (a review never takes the conversion back). */
export const CONVERTED: readonly ConversionStatusName[] = ['CONVERTED', 'FLAGGED'];

/** A funnel record before its conversion: the referee known (PENDING), or their click (CLICKED). */
export const NOT_CONVERTED: readonly ConversionStatusName[] = ['PENDING', 'CLICKED'];

export const isConverted = (record: Pick<ConversionDoc, 'status'>): boolean => CONVERTED.includes(record.status);

/** When a converted record counts in its campaign's time buckets: its conversion. */
export const countedAt = (record: Pick<ConversionDoc, 'convertedAt' | 'createdAt'>): Date => record.convertedAt ?? record.createdAt;
