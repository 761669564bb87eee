/**
 * What every store refuses to write: an id, scope or unique key holding U+0000 (NUL). PostgreSQL text cannot hold
 * that character, so the other stores refuse it too, and a store behaves the same whichever adapter it is: a
 * read under such a name finds nothing in any of them, since nothing can have been written under it. Request
 * schemas refuse NUL in ids and names first, naming the field; this is the last line, for any path they miss.
 *
 * @module
 */
import { invalidArgument } from "../common/errors.js";
import type { Placement, StoredRecord } from "./store.js";

/** Whether `text` holds U+0000. */
export function holdsNul(text: string): boolean {
  return text.includes("\u0000");
}

/** Refuses a write whose id, scope or unique keys hold U+0000 (`INVALID_ARGUMENT` naming which). */
export function assertStorable(owner: string, collection: string, record: StoredRecord, placement: Placement): void {
  const refuse = (field: string) =>
    invalidArgument(
      `${owner}: ${field} of a ${collection} record holds a NUL character (U+0000), which no store keeps`,
      field,
      {
        reason: "NUL_CHARACTER",
        collection,
      },
    );
  if (holdsNul(record.id)) throw refuse("id");
  if (holdsNul(placement.scope)) throw refuse("placement.scope");
  for (const [index, key] of Object.entries(placement.keys ?? {})) {
    if (holdsNul(key)) throw refuse(`placement.keys.${index}`);
  }
}
