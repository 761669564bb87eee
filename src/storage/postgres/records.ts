/**
 * Records as the tables hold them: JSON text, parsed into frozen objects on the way out.
 *
 * @module
 */
import type { StoredRecord } from "../store.js";

export function encodeRecord(record: StoredRecord): string {
  return JSON.stringify(record);
}

/**
 * Parses a stored record and freezes it all the way down, as the Store interface promises. The reviver runs
 * on the innermost values first, so each object is frozen after its members are.
 */
export function decodeRecord(text: string): StoredRecord {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "object" && value !== null ? Object.freeze(value) : value,
  ) as StoredRecord;
}
