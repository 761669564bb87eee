/**
 * Engine-wide settings and services a handler may use, resolved once from the engine options.
 *
 * @module
 */
import type { KeyCache } from "./key-cache.js";
import type { SecretVault } from "./secrets.js";

export interface EngineServices {
  /** Submissions older than this are refused (ms). */
  readonly maxRequestAgeMs: number;
  /** Submissions dated further ahead than this are refused (ms). */
  readonly maxClockSkewMs: number;
  /** Seals secrets before they reach the store. */
  readonly secrets: SecretVault;
  /** Derived keys kept in memory (never in the store). */
  readonly keys: KeyCache;
  /** Refuse non-hardened ed25519 path levels instead of hardening them. */
  readonly strictEd25519Paths: boolean;
}
