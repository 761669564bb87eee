/**
 * `custodian/testing`: what a test suite needs to replace a mocked Turnkey with a real engine in-process:
 * an organization with a root API key, an in-process `fetch` (or a loopback port) for the official clients,
 * non-root users with their policies, approvals, stamped requests, API key pairs, deterministic seeds and
 * snapshots.
 *
 * ```ts
 * import { createTestOrganization } from "custodian/testing";
 * const org = await createTestOrganization({ seed: "my suite" });
 * ```
 *
 * @module custodian/testing
 */
export { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT, type WalletAccountPreset } from "./accounts.js";
export { type ApiKeyPair, generateApiKeyPair, type Stamp, stampWithApiKey } from "./api-keys.js";
export { activityOf, type Voter } from "./approvals.js";
export { createInProcessFetch, type FetchFunction, installGlobalFetch } from "./in-process-fetch.js";
export {
  createTestOrganization,
  DEFAULT_SEEDED_START_MS,
  DEFAULT_TEST_BASE_URL,
  type TestOrganization,
  type TestOrganizationOptions,
  type TestOrganizationSnapshot,
} from "./organization.js";
export { createStampedClient, type StampedClient, type StampedClientOptions } from "./stamped-client.js";
export {
  type CreateTestUserOptions,
  TEST_ACTIVITY_POLLER,
  type TestUser,
  type TestUserPolicy,
  type TurnkeyServerConfig,
} from "./users.js";
