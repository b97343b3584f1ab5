import type { components, paths } from './generated/openapi';

/** Every schema of the API by name, e.g. `Schemas['Campaign']`. */
export type Schemas = components['schemas'];

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Path = keyof paths;

type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON body an operation takes. */
export type Body<P extends Path, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B
      : never;

/** The query parameters an operation takes. */
export type Query<P extends Path, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;

/** What an operation answers when it succeeds (its 2xx JSON body; undefined for 204). */
export type Result<P extends Path, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? Json<R[S]> : never }[keyof R]
    : never;

/** The error envelope of every failure. */
export type ErrorEnvelope = Schemas['ErrorResponse'];
