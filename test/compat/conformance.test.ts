/**
 * Every answer custodian serves conforms to the public API description: a run of operations through
 * @turnkey/http over the HTTP adapter (users with and without contacts, keys with and without expiry,
 * wallets, private keys, signing, policies, activities in every listing, email recovery and its email
 * events), each answer checked against its path's response schema (test/support/swagger-conformance.ts).
 * Absent optional scalars are left out and only absent messages are `null`, as the hosted service prints them.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { OPERATIONS } from "../../src/operations/table.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { passkeyParams } from "../support/signers.js";
import { SoftwareAuthenticator } from "../support/software-authenticator.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootUserId: string;
let client: TurnkeyClient;
const checked = new Set<string>();
const faults: string[] = [];

const URL_PATHS = new Map<string, string>(
  OPERATIONS.map((operation) => [
    operation.method,
    `/public/v1/${operation.kind === "activity" ? "submit" : "query"}/${operation.path}`,
  ]),
);

/** A client whose every answer is checked against the description as it arrives. */
function checkingClient(inner: TurnkeyClient): TurnkeyClient {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const urlPath = typeof property === "string" ? URL_PATHS.get(property) : undefined;
      if (typeof value !== "function" || urlPath === undefined) return value;
      return async (input: unknown) => {
        const answer = await value.call(target, input);
        checked.add(urlPath);
        faults.push(...conformanceFaults(urlPath, answer).map((fault) => `${urlPath} ${fault}`));
        return answer;
      };
    },
  });
}

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  ({ engine, organizationId, rootUserId } = fixture);
  server = await serve(engine);
  const stamper = new ApiKeyStamper({
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
  });
  client = checkingClient(new TurnkeyClient({ baseUrl: server.baseUrl }, stamper));
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

const now = () => String(Date.now());

describe("served answers against the public API description", () => {
  it("conform for every operation the run reaches", async () => {
    const created = await client.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: now(),
      organizationId,
      parameters: {
        users: [
          {
            userName: "alice",
            userEmail: "alice@acme.test",
            apiKeys: [
              { apiKeyName: "long-lived", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" },
            ],
            authenticators: [],
            oauthProviders: [],
            userTags: [],
          },
          { userName: "bob", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] },
        ],
      },
    });
    const [aliceId, bobId] = (created.activity.result.createUsersResult?.userIds ?? []) as [string, string];
    await client.createApiKeys({
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
      timestampMs: now(),
      organizationId,
      parameters: {
        userId: aliceId,
        apiKeys: [
          {
            apiKeyName: "expiring",
            publicKey: p256KeyPair().publicKey,
            curveType: "API_KEY_CURVE_P256",
            expirationSeconds: "3600",
          },
        ],
      },
    });
    const bob = await client.getUser({ organizationId, userId: bobId });
    expect(bob.user).not.toHaveProperty("userEmail");
    expect(bob.user).not.toHaveProperty("userPhoneNumber");
    const { apiKeys } = await client.getApiKeys({ organizationId, userId: aliceId });
    const longLived = apiKeys.find((key) => key.apiKeyName === "long-lived");
    expect(longLived).not.toHaveProperty("expirationSeconds");
    await client.getUsers({ organizationId });
    await client.getApiKey({ organizationId, apiKeyId: longLived?.apiKeyId as string });
    await client.getWhoami({ organizationId });
    await client.getOrganization({ organizationId });

    const wallet = await client.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: now(),
      organizationId,
      parameters: {
        walletName: "main",
        accounts: [
          {
            curve: "CURVE_SECP256K1",
            pathFormat: "PATH_FORMAT_BIP32",
            path: "m/44'/60'/0'/0/0",
            addressFormat: "ADDRESS_FORMAT_ETHEREUM",
          },
        ],
      },
    });
    const walletId = wallet.activity.result.createWalletResult?.walletId as string;
    const address = wallet.activity.result.createWalletResult?.addresses[0] as string;
    await client.getWallets({ organizationId });
    await client.getWallet({ organizationId, walletId });
    await client.getWalletAccounts({ organizationId, walletId });
    await client.getWalletAccount({ organizationId, walletId, address });
    await client.signRawPayload({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: now(),
      organizationId,
      parameters: {
        signWith: address,
        payload: "0x68656c6c6f",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      },
    });
    const keys = await client.createPrivateKeys({
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2",
      timestampMs: now(),
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "k",
            curve: "CURVE_ED25519",
            addressFormats: ["ADDRESS_FORMAT_SOLANA"],
            privateKeyTags: [],
          },
        ],
      },
    });
    const privateKeyId = keys.activity.result.createPrivateKeysResultV2?.privateKeys[0]?.privateKeyId as string;
    await client.getPrivateKeys({ organizationId });
    await client.getPrivateKey({ organizationId, privateKeyId });

    await client.createPolicy({
      type: "ACTIVITY_TYPE_CREATE_POLICY_V3",
      timestampMs: now(),
      organizationId,
      parameters: {
        policyName: "alice signs",
        effect: "EFFECT_ALLOW",
        consensus: `approvers.any(user, user.id == '${aliceId}')`,
        condition: "activity.action == 'SIGN'",
        notes: "",
      },
    });
    await client.getPolicies({ organizationId });

    const target = generateP256KeyPair();
    await client.initUserEmailRecovery({
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
      timestampMs: now(),
      organizationId,
      parameters: { email: "alice@acme.test", targetPublicKey: target.publicKey, emailCustomization: { appName: "D" } },
    });
    await client.recoverUser({
      type: "ACTIVITY_TYPE_RECOVER_USER",
      timestampMs: now(),
      organizationId,
      parameters: { userId: aliceId, authenticator: passkeyParams(new SoftwareAuthenticator()) },
    });
    await client.getAuthenticators({ organizationId, userId: aliceId });
    await client.listEmailEvents({ organizationId, email: "alice@acme.test" });

    const { activities } = await client.getActivities({ organizationId });
    for (const activity of activities) await client.getActivity({ organizationId, activityId: activity.id });
    expect(rootUserId).toBeDefined();

    expect(faults).toEqual([]);
    expect(checked.size).toBeGreaterThanOrEqual(25);
  });

  it("are checked: a null scalar, a missing required member, an undeclared member and a bad enum are faults", async () => {
    const { user } = await client.getUser({ organizationId, userId: rootUserId });
    const { userName: _dropped, ...withoutName } = user;
    const { activities } = await client.getActivities({ organizationId });
    const activity = activities[0] as (typeof activities)[0];
    expect(conformanceFaults("/public/v1/query/get_user", { user: { ...user, userPhoneNumber: null } })).toEqual([
      "answer.user.userPhoneNumber: null where the description has a string",
    ]);
    expect(conformanceFaults("/public/v1/query/get_user", { user: withoutName })).toEqual([
      "answer.user.userName: required and missing",
    ]);
    expect(conformanceFaults("/public/v1/query/get_user", { user: { ...user, extra: 1 } })).toEqual([
      "answer.user.extra: not in the description",
    ]);
    expect(conformanceFaults("/public/v1/query/get_activity", { activity: { ...activity, status: "DONE" } })).toEqual([
      'answer.activity.status: "DONE" is not one of the description\'s values',
    ]);
    expect(conformanceFaults("/public/v1/query/get_activity", { activity: { ...activity, failure: null } })).toEqual(
      [],
    );
  });
});
