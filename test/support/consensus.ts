/**
 * Fixtures for the policy and approval tests: an organization with one root user and named non-root
 * members, each holding a P-256 API key, created through the engine's own operations.
 */
import { expect } from "vitest";
import { CustodyEngine, type CustodyEngineOptions, type CustodyError } from "../../src/index.js";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { custodyRejection } from "./custody-error.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "./engine.js";

export interface Member {
  userId: string;
  key: ApiKeyPair;
  /** The engine acting as this member. */
  as: CustodyEngine;
}

/** An organization whose root user (quorum 1 of 1) created `names` as ordinary members. */
export async function organizationWithMembers<const N extends string>(
  names: readonly N[],
  options: CustodyEngineOptions = {},
) {
  const fixture = await engineWithOrganization(options);
  const { engine, root, organizationId } = fixture;
  const keys = names.map(() => p256KeyPair());
  if (names.length === 0) return { ...fixture, members: {} as Record<N, Member> };
  const { activity } = await root.createUsers({
    organizationId,
    parameters: {
      users: names.map((userName, i) => ({
        userName,
        apiKeys: [{ apiKeyName: userName, publicKey: keys[i]!.publicKey, curveType: "API_KEY_CURVE_P256" as const }],
        authenticators: [],
        oauthProviders: [],
        userTags: [],
      })),
    },
  });
  const { userIds } = activity.result!.createUsersResult as { userIds: string[] };
  const members = Object.fromEntries(
    names.map((name, i) => [name, { userId: userIds[i]!, key: keys[i]!, as: engine.as({ userId: userIds[i]! }) }]),
  ) as Record<N, Member>;
  return { ...fixture, members };
}

/**
 * An organization whose two root users, "a" and "b", must both approve (root quorum 2 of 2), on `engine` (default
 * a new one): the root quorum preset the kit's single root user does not give.
 */
export async function twoOfTwoRootQuorum(engine: CustodyEngine = new CustodyEngine()) {
  const key = () => [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" as const }];
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Co-signed",
    rootUsers: [
      { userName: "a", apiKeys: key() },
      { userName: "b", apiKeys: key() },
    ],
    rootQuorumThreshold: 2,
  });
  return {
    engine,
    organizationId,
    a: engine.as({ userId: rootUserIds[0] as string }),
    b: engine.as({ userId: rootUserIds[1] as string }),
  };
}

/** Creates a user tag on `userIds` (as the root user) and returns its id. */
export async function tagUsers(root: CustodyEngine, organizationId: string, userTagName: string, userIds: string[]) {
  const { activity } = await root.createUserTag({ organizationId, parameters: { userTagName, userIds } });
  return (activity.result!.createUserTagResult as { userTagId: string }).userTagId;
}

/** Creates a V3 policy (as the root user) and returns its id. */
export async function addPolicy(
  root: CustodyEngine,
  organizationId: string,
  policy: {
    policyName: string;
    effect: "EFFECT_ALLOW" | "EFFECT_DENY";
    condition?: string;
    consensus?: string;
    time?: string;
  },
) {
  const { activity } = await root.createPolicy({ organizationId, parameters: { notes: "", ...policy } });
  return (activity.result!.createPolicyResult as { policyId: string }).policyId;
}

/** `create_wallet` parameters with one Ethereum account. */
export function walletParameters(walletName: string) {
  return {
    walletName,
    accounts: [ETHEREUM_ACCOUNT],
  };
}

/** Awaits a refusal and checks its code (and reason, when given). */
export async function refusal(promise: Promise<unknown>, code: string, reason?: string): Promise<CustodyError> {
  const custody = await custodyRejection(promise);
  expect(custody.code, custody.message).toBe(code);
  if (reason !== undefined) expect(custody.details.reason, custody.message).toBe(reason);
  return custody;
}

/** Where the send policies of {@link addSendPolicies} send a call that needs the reviewer too. */
export const REVIEWED_TO = "0x000000000000000000000000000000000000c0c0";
/** Where the send policies of {@link addSendPolicies} deny any transaction. */
export const BLOCKED_TO = "0x000000000000000000000000000000000000dead";

/**
 * The policies the gas station tests send under: `agent` alone may send `eth_send_transaction` V2 calls to
 * `allowed` (the policy named `allowedName`), calls to {@link REVIEWED_TO} need `reviewer` too, and every
 * transaction to {@link BLOCKED_TO} is denied.
 */
export async function addSendPolicies(
  root: CustodyEngine,
  organizationId: string,
  members: { agent: Member; reviewer: Member },
  allowed: { to: string; policyName: string },
): Promise<void> {
  const v2 = "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2";
  const { agent, reviewer } = members;
  await addPolicy(root, organizationId, {
    policyName: allowed.policyName,
    effect: "EFFECT_ALLOW",
    condition: `activity.type == '${v2}' && eth.tx.to == '${allowed.to}'`,
    consensus: `approvers.any(user, user.id == '${agent.userId}')`,
  });
  await addPolicy(root, organizationId, {
    policyName: "sends to c0c0 need the reviewer too",
    effect: "EFFECT_ALLOW",
    condition: `activity.type == '${v2}' && eth.tx.to == '${REVIEWED_TO}'`,
    consensus: `approvers.any(user, user.id == '${agent.userId}') && approvers.any(user, user.id == '${reviewer.userId}')`,
  });
  await addPolicy(root, organizationId, {
    policyName: "never to dead",
    effect: "EFFECT_DENY",
    condition: `eth.tx.to == '${BLOCKED_TO}'`,
  });
}
