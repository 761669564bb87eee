/**
 * "Did you mean": the accepted values nearest to a mistyped one, so an error about a bad enum value names a
 * few candidates instead of printing every accepted value.
 *
 * @module
 */

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * Longest value compared: the work is the product of the lengths, and a name longer than this is no
 * mistyped keyword, flag or enum value.
 */
const MAX_COMPARED_LENGTH = 128;

/**
 * Up to `limit` of `candidates` closest to `value` (case-insensitive), nearest first: those within two
 * edits of the nearest, and none so far that it would not help (more than a third of the value's length).
 * None for a value longer than 128 characters.
 */
export function closeMatches(value: string, candidates: readonly string[], limit = 3): string[] {
  if (value.length > MAX_COMPARED_LENGTH || candidates.length === 0) return [];
  const wanted = value.toUpperCase();
  const scored = candidates.map((candidate) => ({
    candidate,
    distance: editDistance(wanted, candidate.toUpperCase()),
  }));
  const nearest = Math.min(...scored.map(({ distance }) => distance));
  const bound = Math.min(nearest + 2, Math.max(2, Math.ceil(wanted.length / 3)));
  return scored
    .filter(({ distance }) => distance <= bound)
    .sort((x, y) => x.distance - y.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
