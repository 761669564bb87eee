/**
 * Valibot building blocks shared by the operation schemas. Limits here are the engine's protection
 * against hostile input: every string and array in a request has a bound.
 *
 * @module
 */
import * as v from "valibot";

export const MAX_NAME_LENGTH = 256;
export const MAX_ID_LENGTH = 128;
export const MAX_LIST_LENGTH = 1000;

/**
 * Refuses U+0000 (NUL) in a string that names or finds stored things: PostgreSQL text cannot hold the character,
 * so no store keeps it (`storage/storable.ts`), and the request is refused here, naming its field, whatever the
 * store.
 */
export const withoutNul = v.check(
  (value: string) => !value.includes("\u0000"),
  "must not contain a NUL character (U+0000)",
);

/** An object id (UUID for custodian's own ids; any bounded non-empty string is looked up). */
export const id = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(MAX_ID_LENGTH), withoutNul);

/** A human-readable name. */
export const name = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
  withoutNul,
);

/** A bounded array. */
export function list<S extends v.GenericSchema>(item: S, max = MAX_LIST_LENGTH) {
  return v.pipe(v.array(item), v.maxLength(max, `must have at most ${max} items`));
}

/**
 * An int64 in proto3 JSON: a decimal string, or a JSON number the way proto3 parsers also accept.
 * Normalized to the decimal string, which is how responses print int64.
 */
export const int64String = v.pipe(
  v.union([
    v.pipe(v.string(), v.regex(/^(0|[1-9][0-9]{0,18})$/, "must be a non-negative decimal integer")),
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
  ]),
  v.transform((value) => String(value)),
);

/** An int32 in proto3 JSON: a number or a decimal string. */
export const int32 = v.pipe(
  v.union([
    v.pipe(v.number(), v.integer()),
    v.pipe(v.string(), v.regex(/^-?(0|[1-9][0-9]{0,9})$/), v.transform(Number)),
  ]),
  v.number(),
  v.minValue(-(2 ** 31)),
  v.maxValue(2 ** 31 - 1),
);

/** `v1Pagination`: `limit` 1–100 (a decimal string), `before`/`after` object-id cursors. */
export const pagination = v.object({
  limit: v.optional(
    v.pipe(
      int64String,
      v.transform(Number),
      v.number(),
      v.minValue(1, "must be between 1 and 100"),
      v.maxValue(100, "must be between 1 and 100"),
    ),
  ),
  before: v.optional(id),
  after: v.optional(id),
});

export type PaginationInput = v.InferOutput<typeof pagination>;

/** The default and maximum page sizes of `v1Pagination`. */
export const DEFAULT_PAGE_SIZE = 10;
