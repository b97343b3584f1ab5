import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { ZodObject, ZodType } from 'zod';
import { enumName, enumNames, enumValue, type EnumName } from '@ris/contracts';
import { z } from '../openapi/zod';
import { isoTime } from './proto-json';

/**
 * One declaration per public entity: the zod schema the OpenAPI document
 * shows, and how each field is read from the service's proto message, side
 * by side, so a field is added in one place (docs/structure.md, "The
 * gateway's entities"). A field is
 *
 * - a zod schema alone: the message's field of the same name, as it is
 *   (unset → null); the compiler checks the message has it, of a type the
 *   schema takes;
 * - time(): the Timestamp of the same name as ISO 8601 (unset → null);
 * - SomeEnum.field(): the enum of the same name as its public name;
 * - from(schema, read): anything else (another name, a default, a
 *   computation), the reader's result checked against the schema (or null:
 *   what a message the service always fills shows when it is missing).
 */
export interface Field<M, S extends ZodType = ZodType> {
  readonly schema: S;
  // A property, not a method: checked strictly, so a reader of another message does not fit.
  readonly read: (message: M, key: string) => unknown;
}

const FIELD = Symbol('field');
type Tagged<M, S extends ZodType> = Field<M, S> & { readonly [FIELD]: true };

const isField = (value: unknown): value is Tagged<unknown, ZodType> => typeof value === 'object' && value !== null && FIELD in value;

/**
 * A field read another way than "the same name, as it is". Type the
 * reader's parameter (`(c: Conversion) => …`): entity() checks it is the
 * message it declares.
 */
export function from<S extends ZodType, M>(schema: S, read: (message: M) => z.input<S> | null): Tagged<M, S> {
  return { schema, read: (message) => read(message), [FIELD]: true };
}

/** The Timestamp of the same name, as ISO 8601 UTC with milliseconds; null when unset. */
export function time<S extends ZodType>(schema: S): Tagged<unknown, S> {
  return { schema, read: (message, key) => isoTime((message as Record<string, Timestamp | undefined>)[key]), [FIELD]: true };
}

type NumericEnum = Record<string, string | number>;

/**
 * A public enum: the names of the contract's generated enum (the proto's
 * list, in its order), or a subset of them, as one zod enum; and both
 * directions between a name and the proto value.
 */
export function publicEnum<E extends NumericEnum, const N extends EnumName<E> = EnumName<E>>(e: E, names?: readonly [N, ...N[]]) {
  const list = (names ?? enumNames(e)) as [N, ...N[]];
  const schema = z.enum(list);
  /** A proto value's public name; null when unset (or outside this subset). */
  const name = (value: number): N | null => {
    const found = enumName(e, value) as N | undefined;
    return found !== undefined && list.includes(found) ? found : null;
  };
  return {
    names: list,
    schema,
    name,
    /** A name a request sent → the proto value (UNSPECIFIED when absent). */
    value: (sent: N | null | undefined) => enumValue(e, sent),
    /** The enum of the same name as a field of an entity; `build` adds to the schema (a description, nullable). */
    field<S extends ZodType = typeof schema>(build?: (base: typeof schema) => S): Tagged<unknown, S> {
      return {
        schema: (build ? build(schema) : schema) as S,
        read: (message, key) => name((message as Record<string, number>)[key]),
        [FIELD]: true,
      };
    },
  };
}

type Spec<M> = Record<string, ZodType | Field<M>>;

/** Each bare schema must name a field of the message whose value it takes (unset values become null: the schema must allow it). */
type Checked<M, S extends Spec<M>> = {
  [K in keyof S]: S[K] extends Field<M> ? S[K]
    : S[K] extends ZodType
      ? K extends keyof M
        ? [NonNullable<M[K]>] extends [z.input<S[K]>]
          ? undefined extends M[K]
            ? null extends z.input<S[K]> ? S[K] : `${K & string} may be unset in the message: the schema must be nullable`
            : S[K]
          : `${K & string} of the message does not fit its schema: read it with from()`
        : `${K & string} is not a field of the message: read it with from()`
      : never;
};

type Shape<M, S extends Spec<M>> = { [K in keyof S]: S[K] extends Field<M, infer Z> ? Z : S[K] extends ZodType ? S[K] : never };

export interface Entity<M, Z extends ZodObject> {
  /** The zod schema: a component of the OpenAPI document when named. */
  readonly schema: Z;
  /** The public JSON of a message, field by field in the schema's order. */
  json(message: M): z.output<Z>;
  /** This entity as the field of the same name of another one (an unset message → null). */
  field(): Tagged<unknown, ReturnType<Z['nullable']>>;
  /** A list of this entity as the field of the same name of another one. */
  list(): Tagged<unknown, z.ZodArray<Z>>;
}

/**
 * Declares the public shape of the messages M: `entity<Campaign>()('Campaign', {...})`.
 * `name` makes the schema a named component (`.openapi(name, meta)`); without it the object is inline.
 */
export function entity<M>() {
  return <S extends Spec<M>>(name: string | null, spec: S & Checked<M, S>, meta?: Partial<ZodOpenAPIMetadata>): Entity<M, ZodObject<Shape<M, S>>> => {
    const keys = Object.keys(spec);
    const shape = Object.fromEntries(keys.map((key) => [key, isField(spec[key]) ? (spec[key] as Field<M>).schema : spec[key]]));
    const object = z.object(shape);
    const schema = (name === null ? object : meta ? object.openapi(name, meta) : object.openapi(name)) as unknown as ZodObject<Shape<M, S>>;
    const readers = keys.map((key) => {
      const field = spec[key];
      if (isField(field)) return (message: M) => field.read(message, key);
      return (message: M) => (message as Record<string, unknown>)[key] ?? null;
    });
    const json = (message: M) => Object.fromEntries(keys.map((key, i) => [key, readers[i](message)])) as z.output<ZodObject<Shape<M, S>>>;
    return {
      schema,
      json,
      field: () => ({ schema: schema.nullable() as never, read: (message, key) => {
        const value = (message as Record<string, M | undefined>)[key];
        return value === undefined ? null : json(value);
      }, [FIELD]: true }),
      list: () => ({ schema: z.array(schema) as never, read: (message, key) => (message as Record<string, M[]>)[key].map(json), [FIELD]: true }),
    };
  };
}
