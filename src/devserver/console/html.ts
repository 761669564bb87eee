/**
 * HTML built by a tagged template that escapes every interpolated value unless it is itself built by the
 * template, so names and intents a client chose are shown as text, never run as markup.
 *
 * @module
 */

const MARKUP = Symbol("html");

/** A fragment of trusted markup. */
export interface Html {
  readonly [MARKUP]: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);
}

function isHtml(value: unknown): value is Html {
  return typeof value === "object" && value !== null && MARKUP in value;
}

function fragment(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (isHtml(value)) return value[MARKUP];
  if (Array.isArray(value)) return value.map(fragment).join("");
  return escapeHtml(String(value));
}

/** `html\`<td>${name}</td>\``: values are escaped; fragments and arrays of fragments are inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string;
  values.forEach((value, index) => {
    out += fragment(value) + (strings[index + 1] as string);
  });
  return { [MARKUP]: out };
}

/** The markup of a fragment. */
export function markup(fragmentOf: Html): string {
  return fragmentOf[MARKUP];
}
