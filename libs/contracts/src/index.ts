// Generated protobuf-es v2 messages and Connect service descriptors
// (`npm run proto:generate`); never edit ./gen by hand.
export * from './gen/common/v1/common_pb';
export * from './gen/grpc/health/v1/health_pb';
export * from './gen/referral/v1/referral_pb';
export * from './gen/fraud/v1/fraud_pb';
export * from './gen/reward/v1/reward_pb';
export * from './gen/reward/v1/payout_pb';
export * from './gen/incentive/v1/incentive_pb';
export * from './gen/incentive/v1/engagement_pb';
export * from './gen/catalog_marketplace/v1/catalog_marketplace_pb';
export * from './gen/webhook/v1/webhook_pb';
export { DEFAULT_CODE_VALIDITY_DAYS, MAX_HOLD_DAYS, MAX_RECURRING_MONTHS } from './defaults';
export { CURRENCY_CODES, DEFAULT_CURRENCY, currencyDigits, isCurrencyCode } from './currency';
export { enumName, enumNames, enumValue, type EnumName } from './enum-names';
export type { ServiceCalls } from './service-calls';
// referral.v1 (its RecordClick and RecordClicks RPCs) and fraud.v1 (click
// signals, RecordClicks) both define RecordClickRequest and
// RecordClicksRequest/Response. The flat names stay the referral ones (the
// public API's); the fraud ones are exported under a prefix.
export {
  RecordClickRequestSchema,
  RecordClickResponseSchema,
  RecordClicksRequestSchema,
  RecordClicksResponseSchema,
  type RecordClickRequest,
  type RecordClickResponse,
  type RecordClicksRequest,
  type RecordClicksResponse,
} from './gen/referral/v1/referral_pb';
export {
  RecordClickRequestSchema as FraudRecordClickRequestSchema,
  RecordClicksRequestSchema as FraudRecordClicksRequestSchema,
  RecordClicksResponseSchema as FraudRecordClicksResponseSchema,
  type RecordClickRequest as FraudRecordClickRequest,
  type RecordClicksRequest as FraudRecordClicksRequest,
  type RecordClicksResponse as FraudRecordClicksResponse,
} from './gen/fraud/v1/fraud_pb';
export { characterCount } from './character-count';
