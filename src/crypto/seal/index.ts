/**
 * Sealing secrets at rest: AES-256-GCM envelope encryption under a host-provided key-encryption key, with
 * versioned formats, record binding and KEK rotation. Pure: no storage, no clock; randomness is injectable.
 *
 * @module
 */
export { SEAL_FORMAT_VERSION } from "./format.js";
export { createSealer, type Sealer, type SealerOptions } from "./sealer.js";
