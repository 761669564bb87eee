/**
 * Engine-wide settings and services a handler may use, resolved once from the engine options.
 *
 * @module
 */

export interface EngineServices {
  /** Submissions older than this are refused (ms). */
  readonly maxRequestAgeMs: number;
  /** Submissions dated further ahead than this are refused (ms). */
  readonly maxClockSkewMs: number;
}
