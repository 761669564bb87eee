/**
 * The three frames and where each one's browser script comes from.
 *
 * @module
 */

/** The frames a host can serve, named after the hosted ones (export.turnkey.com, import…, auth…). */
export const FRAME_KINDS = ["export", "import", "auth"] as const;

/** One of {@link FRAME_KINDS}. */
export type FrameKind = (typeof FRAME_KINDS)[number];

/** The browser entry of each frame, relative to this folder; `tsup.config.ts` builds the same files. */
export const FRAME_SOURCES: Readonly<Record<FrameKind, string>> = {
  export: "browser/export-frame.ts",
  import: "browser/import-frame.ts",
  auth: "browser/auth-frame.ts",
};
