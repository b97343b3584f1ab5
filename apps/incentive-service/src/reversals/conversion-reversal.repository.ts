import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { conversionReversalId } from '../events/derived-ids';
import { conversionReversalModel, type ConversionReversalDoc } from './conversion-reversal.model';

/** The conversions whose full reversal reached the engine (conversion-reversal.model.ts). */
export class ConversionReversalRepository extends Repository<ConversionReversalDoc> {
  constructor(db: Connection) {
    super(conversionReversalModel(db));
  }

  /** Records a conversion's reversal, or answers the one recorded first (a redelivery, another replica, a later reversal). */
  async record(appId: string, reversal: Omit<ConversionReversalDoc, '_id' | 'appId' | 'createdAt'>): Promise<ConversionReversalDoc> {
    const doc = { ...reversal, _id: conversionReversalId(appId, reversal.conversionId), createdAt: new Date() };
    return (await this.insertOrGet(appId, doc)).doc;
  }

  /** The recorded reversal of a conversion, if one reached the engine. */
  ofConversion(appId: string, conversionId: string): Promise<ConversionReversalDoc | null> {
    return this.collection.findById(appId, conversionReversalId(appId, conversionId));
  }
}
