import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER, requestIdFrom, runWithRequestContext } from '@ris/logging';

/** Echoes the caller's X-Request-Id (or makes one) and binds it for logs and RPCs. */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdFrom(req.header(REQUEST_ID_HEADER));
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  runWithRequestContext({ requestId: id }, next);
};
