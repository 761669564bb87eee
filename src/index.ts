/**
 * custodian: an embeddable key-custody and policy engine that speaks the Activity API.
 *
 * ```ts
 * import { CustodyEngine } from "custodian";
 * const engine = new CustodyEngine();
 * ```
 *
 * @module custodian
 */
export type { Oauth2Provider, Oauth2ProviderConfig, Oauth2Providers } from "./auth/oauth2.js";
export type { SessionClaims } from "./auth/token-signer.js";
export { MAX_TOKENS_PER_CHAIN, type TokenOption, type TokensOption } from "./chains/assets.js";
export type { GasStationOptions } from "./chains/gas-station.js";
export { type ChainBackend, type ChainsOption, httpChainBackend } from "./chains/registry.js";
export { ChainRpcError, ChainUnreachable, type JsonRpcLimits } from "./chains/rpc.js";
export {
  CustodyError,
  type CustodyErrorOptions,
  type ErrorCode,
  type ErrorDetails,
  grpcCodeOf,
  httpStatusOf,
  isCustodyError,
  type RpcStatus,
  type WireErrorDetail,
} from "./common/errors.js";
export type {
  ActivityOperation,
  Operation,
  PolicyTargetData,
  PolicyTargets,
  QueryOperation,
  SeveralPolicyTargets,
} from "./contract/operation.js";
export {
  type ActivityInput,
  type CreateOrganizationInput,
  type CreateOrganizationResult,
  CustodyEngine,
  type CustodyEngineOptions,
  type OperationMethods,
  type RawRequest,
} from "./engine/engine.js";
export type * from "./engine/methods/generated/operation-types.js";
export type { ActivityOf, ActivityResponseOf, OlderActivityInput } from "./engine/methods/method-types.js";
export { fingerprintOf } from "./engine/pipeline/submit.js";
export {
  MemoryOutbox,
  type MemoryOutboxOptions,
  type MessageChannel,
  type MessageSender,
  type OutboxMessage,
  type OutgoingMessage,
} from "./messages/outbox.js";
export type { Principal, PrincipalInput, StampCredential, VerificationClaims } from "./model/principal.js";
export {
  type Clock,
  createSeededRandom,
  createSteppingClock,
  type RandomSource,
  systemClock,
  systemRandom,
} from "./model/random.js";
export type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
  WebhookSubscriptionRecord,
} from "./model/records.js";
export type * from "./model/wire-types.js";
export { OPERATIONS, operationByUrlPath, urlPathOf } from "./operations/table.js";
export { MemoryStore, type MemoryStoreOptions, MemoryStoreSnapshot } from "./storage/memory.js";
export type {
  JsonValue,
  ListOptions,
  Placement,
  Store,
  StoredRecord,
  StoreReader,
  StoreTransaction,
  TransactionOptions,
} from "./storage/store.js";
export { isStoreUnavailable, STORE_UNAVAILABLE, storeUnavailable, UniqueKeyViolation } from "./storage/store.js";
export type { WebhookDeliverySettings } from "./webhooks/retry.js";
export type { WebhookDeliveryListOptions } from "./webhooks/service.js";
export type { WebhookJwk, WebhookJwks } from "./webhooks/signer.js";
