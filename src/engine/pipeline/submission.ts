/**
 * What the stages of the submit pipeline hand each other: the engine's parts they use and a submission that
 * passed parsing and liveness.
 *
 * @module
 */
import type { ActivityOperation, ActivityVersion } from "../../contract/operation.js";
import type { EngineServices } from "../../contract/services.js";
import type { IdGenerator } from "../../model/ids.js";
import type { Principal } from "../../model/principal.js";
import type { Clock, RandomSource } from "../../model/random.js";
import type { Store } from "../../storage/store.js";
import type { KeyedLock } from "./keyed-lock.js";
import type { OrganizationTrees } from "./trees.js";

/** What the pipeline needs from the engine. */
export interface PipelineCore {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly services: EngineServices;
  /** Serializes submissions of one body (see `keyed-lock.ts`). */
  readonly fingerprints: KeyedLock;
  /** The organization trees seen so far: the partition each write names to the store. */
  readonly trees: OrganizationTrees;
}

/** A submission that passed parsing and liveness: what the activity and vote paths work from. */
export interface AcceptedSubmission {
  readonly operation: ActivityOperation;
  readonly version: ActivityVersion;
  readonly parameters: unknown;
  readonly organizationId: string;
  readonly bodyText: string;
  readonly fingerprint: string;
  /** The envelope's `timestampMs`, verbatim. */
  readonly timestampMs: string;
  readonly principal: Principal;
  readonly now: number;
}
