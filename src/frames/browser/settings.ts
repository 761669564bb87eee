/**
 * `APPLY_SETTINGS`: the parent page may restyle the frame's one visible element (the mnemonic's text, the
 * import text area) through `{"styles": {...}}`, limited to presentational properties. Values go through the
 * CSSOM one property at a time, so they cannot add rules, and the page's CSP keeps them from loading anything.
 *
 * @module
 */

const STYLABLE = new Set([
  "padding",
  "margin",
  "width",
  "height",
  "fontSize",
  "fontFamily",
  "fontWeight",
  "color",
  "backgroundColor",
  "border",
  "borderRadius",
  "borderStyle",
  "borderWidth",
  "borderColor",
  "lineHeight",
  "letterSpacing",
  "overflowWrap",
  "textAlign",
  "boxSizing",
  "resize",
  "outline",
]);

/** Applies the settings' styles to `element` and returns the styles it applied. */
export function applySettings(settings: unknown, element: HTMLElement): Record<string, string> {
  if (typeof settings !== "string") throw new Error("settings must be a JSON string");
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings);
  } catch {
    throw new Error("settings are not JSON");
  }
  const styles = (parsed as { styles?: unknown } | null)?.styles;
  if (styles === undefined) return {};
  if (typeof styles !== "object" || styles === null || Array.isArray(styles)) {
    throw new Error("settings.styles must be an object");
  }
  const applied: Record<string, string> = {};
  for (const [property, value] of Object.entries(styles)) {
    if (!STYLABLE.has(property)) throw new Error(`invalid or unsupported style property: ${property}`);
    if (typeof value !== "string") throw new Error(`style ${property} must be a string`);
    element.style.setProperty(
      property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
      value,
    );
    applied[property] = value;
  }
  return applied;
}
