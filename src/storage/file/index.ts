/**
 * The durable file-backed store (`custodian/file`).
 *
 * @module
 */
export type { LockHolder } from "./lock.js";
export type { TornTail } from "./recovery.js";
export { FileStore, type FileStoreOptions, type RecoveryReport } from "./store.js";
