/**
 * The export, import and auth frames that `@turnkey/iframe-stamper` embeds, served by a host for its engine.
 *
 * @module
 */
export { createFramesFetchHandler, createFramesHandler, type FramesOptions } from "./handler.js";
export { FRAME_KINDS, type FrameKind } from "./kinds.js";
