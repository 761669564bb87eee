/**
 * Canonical JSON for bodies the engine builds itself (in-process calls): keys sorted at every level, no
 * white space, `undefined` members dropped. The same call always gives the same bytes, hence the same
 * fingerprint.
 *
 * @module
 */

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return text;
  }
  // Built by concatenation, without the intermediate arrays of map/filter/join: this runs on every in-process call.
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) out += ",";
      out += item === undefined ? "null" : canonicalJson(item);
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = "{";
  for (const key of keys) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    if (out.length > 1) out += ",";
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}
