/**
 * How much of a node's own text custodian repeats. A node's error message, log lines or odd values end up in
 * errors, FAILED activities and send statuses, which every member of the organization reads and the store
 * keeps; a broken or hostile node can make that text as long as its answer. Custodian quotes it, with its full
 * size named, rather than keep whatever the node sent.
 *
 * @module
 */

/** Characters of a node's text quoted in an error or a record. */
export const NODE_TEXT_EXCERPT = 200;

/** Characters of program logs kept from a Solana preflight: the cluster's own default log limit (10 000 bytes). */
export const NODE_LOG_BUDGET = 10_000;

/**
 * `text` as it is when it has at most `max` characters, else its first `max` characters and its full length:
 * `abc… (10485760 characters)`. The cut never splits a surrogate pair.
 */
export function excerpt(text: string, max: number = NODE_TEXT_EXCERPT): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * The first lines of `lines` that fit in about `budget` characters: the line that crosses it is quoted with
 * {@link excerpt}, and one last line says how many lines and characters after it were left out.
 */
export function excerptLines(lines: readonly string[], budget: number = NODE_LOG_BUDGET): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    if (used + line.length <= budget) {
      kept.push(line);
      used += line.length;
      continue;
    }
    kept.push(excerpt(line, Math.max(budget - used, NODE_TEXT_EXCERPT)));
    const rest = lines.slice(index + 1);
    if (rest.length > 0) {
      const characters = rest.reduce((sum, left) => sum + left.length, 0);
      kept.push(`… (${rest.length} more lines left out, ${characters} characters)`);
    }
    return kept;
  }
  return kept;
}

/**
 * A node's JSON value, printed and quoted with {@link excerpt}. A value nested too deeply to print (an answer
 * can nest a megabyte of brackets) is named by its kind instead.
 */
export function excerptJson(value: unknown, max: number = NODE_TEXT_EXCERPT): string {
  if (value === undefined) return "undefined";
  try {
    return excerpt(JSON.stringify(value), max);
  } catch {
    return `(${Array.isArray(value) ? "an array" : typeof value} nested too deeply to show)`;
  }
}
