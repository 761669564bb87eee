/**
 * A non-empty string member that `record` holds itself. Reading own properties only keeps a `__proto__`
 * member (which `JSON.parse` creates as an ordinary property) from ever supplying a field.
 */
export function ownString(record: unknown, key: string): string | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
  if (!Object.hasOwn(record, key)) return undefined;
  const value: unknown = (record as Record<string, unknown>)[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
