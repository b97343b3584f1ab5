import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** A stored document's fields as a message's: dates as Timestamps, null as unset; its _id and appId left to the caller. */
export type MessageFields<D> = {
  [K in keyof D as K extends '_id' | 'appId' ? never : K]: D[K] extends Date
    ? Timestamp
    : NonNullable<D[K]> extends Date
      ? Timestamp | undefined
      : null extends D[K]
        ? Exclude<D[K], null> | undefined
        : D[K];
};

/**
 * The fields of a stored document as a proto message takes them, so a
 * service's *.rpc.ts builds a message as `create(XSchema, { ...messageFields(doc), id: doc._id, status: … })`,
 * naming only what differs (the id, enums, computed fields): a field added
 * to the model and the proto reaches the answer with no third edit, and
 * `create` leaves out what the message does not have.
 */
export function messageFields<D extends object>(doc: D): MessageFields<D> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === '_id' || key === 'appId') continue;
    fields[key] = value instanceof Date ? timestampFromDate(value) : value === null ? undefined : value;
  }
  return fields as MessageFields<D>;
}
