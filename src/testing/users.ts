/**
 * Non-root users of a test organization, each with its own API key, ready clients and the policies that govern
 * it. The root user's requests are settled by the root quorum before any policy is read, so a suite that tests a
 * policy needs a user the policy applies to.
 *
 * @module
 */
import { CustodyError } from "../common/errors.js";
import type { CustodyEngine } from "../engine/engine.js";
import type { Clock, RandomSource } from "../model/random.js";
import type { Activity } from "../model/wire-types.js";
import { type ApiKeyPair, generateApiKeyPair } from "./api-keys.js";
import type { FetchFunction } from "./in-process-fetch.js";
import { createStampedClient, type StampedClient } from "./stamped-client.js";

/**
 * How often the official clients poll an activity that is not finished, in tests: `activityPoller` of
 * `@turnkey/sdk-server` (its default waits 1 s between 4 polls before it hands back an activity that needs
 * consensus), `refreshIntervalMs` of `@turnkey/http`'s `createActivityPoller` (`intervalMs`). Custodian finishes
 * every activity within its request unless it waits for votes, so polling sooner loses nothing.
 */
export const TEST_ACTIVITY_POLLER: Readonly<{ intervalMs: number; numRetries: number }> = Object.freeze({
  intervalMs: 10,
  numRetries: 3,
});

/** Settings for `new Turnkey({...})` of `@turnkey/sdk-server`, bound to one user's API key. */
export interface TurnkeyServerConfig {
  /** The test organization's base URL. */
  apiBaseUrl: string;
  /** The user's API public key. */
  apiPublicKey: string;
  /** The user's API private key. */
  apiPrivateKey: string;
  /** The test organization. */
  defaultOrganizationId: string;
  /** {@link TEST_ACTIVITY_POLLER}: a pending activity comes back in milliseconds rather than seconds. */
  activityPoller: { intervalMs: number; numRetries: number };
}

/** A policy of {@link CreateTestUserOptions.policies}: the `create_policy` parameters, with defaults. */
export interface TestUserPolicy {
  /** `EFFECT_ALLOW` or `EFFECT_DENY`. */
  effect: "EFFECT_ALLOW" | "EFFECT_DENY";
  /** The condition (policy language), e.g. `"eth.tx.to == '0x…'"` (addresses in lower case). Default: always. */
  condition?: string;
  /**
   * Whose approval the policy needs: the expression, or a function of the new user's id that returns it (for a
   * consensus naming this user beside others). Default: `approvers.any(user, user.id == '<this user>')`, so the
   * policy governs this user's own requests and no one else's.
   */
  consensus?: string | ((userId: string) => string);
  /** Default: `"<user name>: allow 1"`, `"<user name>: deny 2"`, ... */
  policyName?: string;
  /** Default: empty. */
  notes?: string;
}

/** Options of `TestOrganization.createUser`. */
export interface CreateTestUserOptions {
  /** The user name (unique in the organization). */
  name: string;
  /** Policies the root user creates for this user, in order. Default: none (its requests are then denied). */
  policies?: readonly TestUserPolicy[];
  /** The user's API key. Default: a fresh P-256 pair (seeded when the organization is). */
  apiKey?: ApiKeyPair;
  /** Default: none. */
  email?: string;
  /**
   * Store policies the engine warns of (a mixed-case address compared with an `eth` value, which never matches;
   * a keyword custodian never fills) instead of failing. Default `false`: a test organization is where such a
   * policy should be caught, so `createUser` throws `FAILED_PRECONDITION` (`POLICY_WARNINGS`) naming each warning
   * (the user and its policies are stored all the same, as the engine stored them).
   */
  allowPolicyWarnings?: boolean;
}

/** A non-root user of a test organization and its clients. */
export interface TestUser {
  /** The user's id. */
  userId: string;
  /** The user name. */
  name: string;
  /** The user's P-256 API key. */
  apiKey: ApiKeyPair;
  /** The ids of the policies created for it, in the order given. */
  policyIds: string[];
  /** The engine acting as this user: in-process typed methods (`user.engine.signTransaction({...})`). */
  engine: CustodyEngine;
  /** Stamped HTTP requests as this user, through the organization's `fetch`. */
  client: StampedClient;
  /** `@turnkey/sdk-server` settings for this user: `new Turnkey(user.turnkeyConfig).apiClient()`. */
  turnkeyConfig: TurnkeyServerConfig;
}

/** What a test organization lends {@link createTestUser}. */
export interface TestUserContext {
  engine: CustodyEngine;
  root: CustodyEngine;
  organizationId: string;
  baseUrl: string;
  fetch: FetchFunction;
  clock: Clock;
  random: RandomSource | undefined;
}

/** `@turnkey/sdk-server` settings for `apiKey` in the organization. */
export function turnkeyConfigFor(baseUrl: string, apiKey: ApiKeyPair, organizationId: string): TurnkeyServerConfig {
  return {
    apiBaseUrl: baseUrl,
    apiPublicKey: apiKey.apiPublicKey,
    apiPrivateKey: apiKey.apiPrivateKey,
    defaultOrganizationId: organizationId,
    activityPoller: { ...TEST_ACTIVITY_POLLER },
  };
}

/**
 * Creates the user as the root user (`create_users`), then its policies (`create_policies`), and binds clients.
 * When the engine refuses the policies (a condition the policy language cannot parse, say), the user stays.
 */
export async function createTestUser(context: TestUserContext, options: CreateTestUserOptions): Promise<TestUser> {
  const { root, organizationId } = context;
  const apiKey = options.apiKey ?? generateApiKeyPair(context.random);
  const { activity } = await root.createUsers({
    organizationId,
    parameters: {
      users: [
        {
          userName: options.name,
          ...(options.email === undefined ? {} : { userEmail: options.email }),
          apiKeys: [{ apiKeyName: options.name, publicKey: apiKey.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    },
  });
  const [userId] = resultOf<{ userIds: [string] }>(activity, "createUsersResult").userIds;
  const policies = (options.policies ?? []).map((policy, index) => ({
    policyName:
      policy.policyName ?? `${options.name}: ${policy.effect === "EFFECT_ALLOW" ? "allow" : "deny"} ${index + 1}`,
    effect: policy.effect,
    ...(policy.condition === undefined ? {} : { condition: policy.condition }),
    consensus: consensusOf(policy, userId),
    notes: policy.notes ?? "",
  }));
  // One activity for all of them: a policy the engine refuses leaves none of the others behind.
  let policyIds: string[] = [];
  if (policies.length > 0) {
    const written = (await root.createPolicies({ organizationId, parameters: { policies } })).activity;
    policyIds = resultOf<{ policyIds: string[] }>(written, "createPoliciesResult").policyIds;
    const { notes } = await context.engine.explainActivity(written.id);
    if (notes.length > 0 && options.allowPolicyWarnings !== true) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `the policies of test user "${options.name}" would not work as written: ${notes.join("; ")} ` +
          "(pass allowPolicyWarnings: true to keep them)",
        { reason: "POLICY_WARNINGS", field: "policies" },
      );
    }
  }
  return {
    userId,
    name: options.name,
    apiKey,
    policyIds,
    engine: context.engine.as({ userId }),
    client: createStampedClient({
      baseUrl: context.baseUrl,
      apiKey,
      organizationId,
      fetch: context.fetch,
      now: context.clock,
    }),
    turnkeyConfig: turnkeyConfigFor(context.baseUrl, apiKey, organizationId),
  };
}

/** The policy's consensus for the new user, scoped to it when the policy names none. */
function consensusOf(policy: TestUserPolicy, userId: string): string {
  if (typeof policy.consensus === "function") return policy.consensus(userId);
  return policy.consensus ?? `approvers.any(user, user.id == '${userId}')`;
}

/** The result member of a completed activity (the root user's activities complete in their request). */
function resultOf<T>(activity: Activity, member: string): T {
  const value = activity.result?.[member];
  if (value === undefined) throw new CustodyError("INTERNAL", `activity ${activity.id} has no ${member}`);
  return value as T;
}
