export { AppScoped, type Page, type PageQuery } from './app-scoped';
export { DocumentWriteQueue } from './document-write-queue';
export { connectMongo, duplicateKeyIndexes, isDuplicateKeyError, isMongoConnected } from './connect-mongo';
export { idFromOperation, newId, randomBase62 } from './new-id';
export { OnceMarkers, type OnceMarker } from './once-markers';
export { insertOnce } from './insert-once';
export { GroupCommit, KeyedGroupCommit, type GroupCommitOptions } from './group-commit';
export { CoalescedReads } from './coalesced-reads';
export { GroupedInserts } from './grouped-inserts';
export { inBatches, mergeSorted } from './in-batches';
export { SerialByKey } from './serial-by-key';
export { closeDrift, compareCounters, reconcileDrift, type CounterDrift } from './counter-drift';
export { Repository, declareIndexes, type IndexDeclaration, type QueryNames } from './repository';
export { dropRetiredIndexes, retireIndexes, type RetiredIndex } from './retired-indexes';
export {
  MAX_BUCKETS,
  readSeries,
  seriesRange,
  timeBucketTargets,
  type SeriesInterval,
  type SeriesRange,
  type StoredInterval,
  type TimeBucketTarget,
} from './time-buckets';
