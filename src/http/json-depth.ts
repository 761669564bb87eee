/**
 * A pre-parse guard: the deepest nesting of a JSON text, found by one linear scan that skips strings, so
 * hostile bodies (10,000 nested arrays) are refused before any parser or validator recurses into them.
 *
 * @module
 */

/** Whether `text` nests objects/arrays deeper than `maxDepth`. Malformed JSON is left to the parser. */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
