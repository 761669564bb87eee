/**
 * Sorted id lists: the ordered scopes behind cursor listings. Ids compare as plain strings, which is
 * creation order for custodian's time-ordered ids.
 *
 * @module
 */
import type { ListOptions } from "./store.js";

/** Index of the first element `> id` (when `strict`) or `>= id`. */
export function lowerBound(ids: readonly string[], id: string, strict = false): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const value = ids[mid] as string;
    if (value < id || (strict && value === id)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Inserts `id` keeping order; appending the newest id, the common case, is O(1). */
export function insertSorted(ids: string[], id: string): void {
  const last = ids[ids.length - 1];
  if (last === undefined || last < id) {
    ids.push(id);
    return;
  }
  const at = lowerBound(ids, id);
  if (ids[at] !== id) ids.splice(at, 0, id);
}

/** Removes `id` if present; says whether it was. */
export function removeSorted(ids: string[], id: string): boolean {
  const at = lowerBound(ids, id);
  if (ids[at] !== id) return false;
  ids.splice(at, 1);
  return true;
}

/**
 * Walks two sorted id lists as one (committed ids minus `isRemoved`, plus `extra`), honouring the
 * cursors, the order and the limit. Cost is proportional to the page plus skipped removals.
 */
export function walkMerged(
  base: readonly string[],
  extra: readonly string[],
  isRemoved: (id: string) => boolean,
  options: ListOptions,
): string[] {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const out: string[] = [];
  if (limit <= 0) return out;
  const inRange = (id: string) =>
    (options.after === undefined || id > options.after) && (options.before === undefined || id < options.before);
  if (options.order === "desc") {
    let i = (options.before === undefined ? base.length : lowerBound(base, options.before)) - 1;
    let j = (options.before === undefined ? extra.length : lowerBound(extra, options.before)) - 1;
    while (out.length < limit && (i >= 0 || j >= 0)) {
      const fromBase = j < 0 || (i >= 0 && (base[i] as string) > (extra[j] as string));
      const id = fromBase ? (base[i--] as string) : (extra[j--] as string);
      if (!inRange(id)) break;
      if (fromBase && isRemoved(id)) continue;
      out.push(id);
    }
    return out;
  }
  let i = options.after === undefined ? 0 : lowerBound(base, options.after, true);
  let j = options.after === undefined ? 0 : lowerBound(extra, options.after, true);
  while (out.length < limit && (i < base.length || j < extra.length)) {
    const fromBase = j >= extra.length || (i < base.length && (base[i] as string) < (extra[j] as string));
    const id = fromBase ? (base[i++] as string) : (extra[j++] as string);
    if (!inRange(id)) break;
    if (fromBase && isRemoved(id)) continue;
    out.push(id);
  }
  return out;
}
