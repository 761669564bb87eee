/**
 * `custodian/testing`: what a test suite needs to replace a mocked Turnkey with a real engine in-process:
 * an organization with a root API key, an in-process `fetch` for the official clients, stamped requests,
 * API key pairs, deterministic seeds and snapshots.
 *
 * ```ts
 * import { createTestOrganization } from "custodian/testing";
 * const org = await createTestOrganization({ seed: "my suite" });
 * ```
 *
 * @module custodian/testing
 */
export { type ApiKeyPair, generateApiKeyPair, type Stamp, stampWithApiKey } from "./api-keys.js";
export { createInProcessFetch, type FetchFunction, installGlobalFetch } from "./in-process-fetch.js";
export {
  createTestOrganization,
  DEFAULT_SEEDED_START_MS,
  DEFAULT_TEST_BASE_URL,
  type TestOrganization,
  type TestOrganizationOptions,
  type TestOrganizationSnapshot,
  type TurnkeyServerConfig,
} from "./organization.js";
export { createStampedClient, type StampedClient, type StampedClientOptions } from "./stamped-client.js";
