/**
 * JSON forms of change sets. A transaction is `{"put":[[collection, record, placement], ...],
 * "delete":[[collection, id], ...]}` (either member may be absent); a snapshot lists its records as the
 * same put triples. Decoding checks the shape, because a frame that passed its checksum but holds the
 * wrong shape means a bug or tampering, which must not be replayed half-understood.
 *
 * @module
 */
import { deepFreezeBranded } from "../../common/deep-frozen.js";
import { CustodyError } from "../../common/errors.js";
import { type Change, Entry } from "../memory.js";
import type { Placement, StoredRecord } from "../store.js";
import { corrupt } from "./format.js";

/** The JSON text of one put triple; `INVALID_ARGUMENT` naming the record when it is not plain JSON. */
export function encodePut(collection: string, record: StoredRecord, placement: Placement): string {
  try {
    return JSON.stringify([collection, record, placement]);
  } catch (error) {
    throw new CustodyError(
      "INVALID_ARGUMENT",
      `FileStore: record ${collection}/${record.id} cannot be stored as JSON (${(error as Error).message})`,
      { reason: "RECORD_NOT_JSON", collection, id: record.id },
      { cause: error },
    );
  }
}

/** The JSON text of a transaction's change set. */
export function encodeTransaction(changes: readonly Change[]): string {
  const puts: string[] = [];
  const deletes: string[] = [];
  for (const { collection, id, entry } of changes) {
    if (entry) puts.push(encodePut(collection, entry.record, entry.placement));
    else deletes.push(JSON.stringify([collection, id]));
  }
  const members: string[] = [];
  if (puts.length > 0) members.push(`"put":[${puts.join(",")}]`);
  if (deletes.length > 0) members.push(`"delete":[${deletes.join(",")}]`);
  return `{${members.join(",")}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A put triple back as a change; `where` places a shape error. */
export function decodePut(value: unknown, where: { file: string; offset: number }): Change {
  if (!Array.isArray(value) || value.length !== 3) throw corrupt(where.file, where.offset, "a put is not a triple");
  const [collection, record, placement] = value as unknown[];
  if (typeof collection !== "string" || !isObject(record) || typeof record.id !== "string") {
    throw corrupt(where.file, where.offset, "a put names no collection or record id");
  }
  return {
    collection,
    id: record.id,
    // Frozen like every record the store hands out: reads return the stored object itself.
    entry: Entry.of(
      record.id,
      deepFreezeBranded(record) as StoredRecord,
      checkPlacement(collection, record.id, placement, where),
    ),
  };
}

/** `placement` of the put of `collection`/`id`, checked to be one; `where` places a shape error. */
export function checkPlacement(
  collection: string,
  id: string,
  placement: unknown,
  where: { file: string; offset: number },
): Placement {
  if (!isObject(placement) || typeof placement.scope !== "string") {
    throw corrupt(where.file, where.offset, `the put of ${collection}/${id} has no scope`);
  }
  if (placement.keys !== undefined && !isObject(placement.keys)) {
    throw corrupt(where.file, where.offset, `the put of ${collection}/${id} has malformed index keys`);
  }
  return placement as unknown as Placement;
}

/** Appends the deletes of a transaction's parsed `delete` list to `changes`. */
export function decodeDeletes(deletes: unknown, changes: Change[], where: { file: string; offset: number }): void {
  if (!Array.isArray(deletes))
    throw corrupt(where.file, where.offset, "a transaction's put or delete list is not an array");
  for (const item of deletes) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== "string" || typeof item[1] !== "string") {
      throw corrupt(where.file, where.offset, "a delete is not a [collection, id] pair");
    }
    changes.push({ collection: item[0], id: item[1], entry: null });
  }
}

/** A transaction's change set back from its parsed JSON. */
export function decodeTransaction(value: unknown, where: { file: string; offset: number }): Change[] {
  if (!isObject(value)) throw corrupt(where.file, where.offset, "a transaction is not an object");
  const { put = [], delete: deletes = [] } = value;
  if (!Array.isArray(put) || !Array.isArray(deletes)) {
    throw corrupt(where.file, where.offset, "a transaction's put or delete list is not an array");
  }
  const changes = put.map((item) => decodePut(item, where));
  decodeDeletes(deletes, changes, where);
  return changes;
}

/**
 * The JSON text of one put triple of `entry`, as {@link encodePut} writes it; a record still held as the text it
 * was read as is written out as that text, without parsing it.
 */
export function encodeEntryPut(collection: string, entry: Entry): string {
  const json = entry.json;
  if (json === undefined) return encodePut(collection, entry.record, entry.placement);
  return `[${JSON.stringify(collection)},${json},${JSON.stringify(entry.placement)}]`;
}
