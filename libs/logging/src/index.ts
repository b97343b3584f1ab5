export { createLogger, type Logger } from './logger';
export {
  REQUEST_ID_HEADER,
  currentRequestId,
  requestIdFrom,
  runWithRequestContext,
  type RequestContext,
} from './request-context';
