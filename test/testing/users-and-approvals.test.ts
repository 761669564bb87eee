/**
 * `custodian/testing` for policy tests through the official clients: a non-root user with its policies
 * (`org.createUser`), a loopback port for `@turnkey/http` (`listen: true`), votes from whatever the client
 * handed back (`org.approve`, `org.reject`), and a fast poller for `@turnkey/sdk-server`.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { createActivityPoller, TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { type Hex, parseGwei, recoverTransactionAddress, type TransactionSerializableEIP1559 } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import {
  activityOf,
  createTestOrganization,
  ETHEREUM_ACCOUNT,
  stampWithApiKey,
  TEST_ACTIVITY_POLLER,
  type TestOrganization,
} from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";

const BLOCKED = "0x000000000000000000000000000000000000dead";
const PAYEE = "0x1111111111111111111111111111111111111111";
const SIGN = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'";

const opened: TestOrganization[] = [];
let restoreFetch: (() => void) | undefined;
afterEach(async () => {
  restoreFetch?.();
  restoreFetch = undefined;
  await Promise.all(opened.splice(0).map((org) => org.close()));
});

async function organization(options: Parameters<typeof createTestOrganization>[0] = {}) {
  const org = await createTestOrganization(options);
  opened.push(org);
  return org;
}

async function walletAddress(org: TestOrganization): Promise<string> {
  const { activity } = await org.root.createWallet({
    organizationId: org.organizationId,
    parameters: { walletName: "treasury", accounts: [ETHEREUM_ACCOUNT] },
  });
  return (activity.result!.createWalletResult as { addresses: string[] }).addresses[0] as string;
}

function transfer(to: Hex): TransactionSerializableEIP1559 {
  return {
    type: "eip1559",
    chainId: 1,
    nonce: 0,
    to,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: parseGwei("20"),
    maxPriorityFeePerGas: parseGwei("1"),
  };
}

describe("listen: true", () => {
  it("serves @turnkey/http's TurnkeyClient, which fetches through its own copy of fetch, on a loopback port", async () => {
    const org = await organization({ listen: true });
    expect(org.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(org.turnkeyConfig.apiBaseUrl).toBe(org.baseUrl);
    const client = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(org.apiKey));
    expect(await client.getWhoami({ organizationId: org.organizationId })).toMatchObject({ userId: org.rootUserId });
    const createWallet = createActivityPoller({ client, requestFn: client.createWallet });
    const activity = await createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId: org.organizationId,
      parameters: { walletName: "over the port", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("stops listening when the organization closes, and closes once however often it is asked", async () => {
    const org = await createTestOrganization({ listen: true });
    const whoami = `${org.baseUrl}/public/v1/query/whoami`;
    expect((await fetch(whoami, { method: "POST", body: "{}" })).status).toBe(400);
    await Promise.all([org.close(), org.close()]);
    await org.close();
    await expect(fetch(whoami, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("refuses a baseUrl beside listen, since the port decides where it answers", async () => {
    await expectCustodyError(
      createTestOrganization({ listen: true, baseUrl: "http://custodian.test" }),
      "INVALID_ARGUMENT",
      "baseUrl",
    );
  });
});

describe("org.createUser", () => {
  it("gives a non-root user whose policies decide, where the root user's requests bypass them", async () => {
    const org = await organization({ listen: true });
    const signWith = await walletAddress(org);
    const agent = await org.createUser({
      name: "agent",
      policies: [
        { effect: "EFFECT_ALLOW", condition: SIGN },
        { effect: "EFFECT_DENY", condition: `eth.tx.to == '${BLOCKED}'` },
      ],
    });
    expect(agent.policyIds).toHaveLength(2);
    const { policies } = await org.root.getPolicies({ organizationId: org.organizationId });
    expect(policies.map((policy) => [policy.policyName, policy.consensus])).toEqual([
      ["agent: allow 1", `approvers.any(user, user.id == '${agent.userId}')`],
      ["agent: deny 2", `approvers.any(user, user.id == '${agent.userId}')`],
    ]);

    restoreFetch = org.installGlobalFetch();
    const signer = async (config: typeof org.turnkeyConfig) =>
      createAccount({ client: new Turnkey(config).apiClient() as never, organizationId: org.organizationId, signWith });
    const asAgent = await signer(agent.turnkeyConfig);

    // The guard holds for the agent: the blocked recipient is refused with the hosted service's text.
    const denied = await asAgent.signTransaction(transfer(BLOCKED)).then(
      () => undefined,
      (e: unknown) => e as Error & { shortMessage?: string },
    );
    expect(denied?.shortMessage).toContain("policy engine denied request explicitly");
    const signed = await asAgent.signTransaction(transfer(PAYEE));
    expect(await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).toBe(signWith);

    // The same request as the root user is settled by the root quorum: a policy test on root proves nothing.
    const asRoot = await signer(org.turnkeyConfig);
    const unguarded = await asRoot.signTransaction(transfer(BLOCKED));
    expect(await recoverTransactionAddress({ serializedTransaction: unguarded as `0x02${string}` })).toBe(signWith);
  });

  it("binds in-process, stamped and @turnkey/http clients to the user's own key", async () => {
    const org = await organization({ listen: true, seed: "users", startMs: Date.now() });
    const agent = await org.createUser({ name: "agent", email: "agent@example.test" });
    expect(agent.apiKey).not.toEqual(org.apiKey);
    expect(await agent.client.post("/public/v1/query/whoami")).toMatchObject({ userId: agent.userId });
    const http = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(agent.apiKey));
    expect(await http.getWhoami({ organizationId: org.organizationId })).toMatchObject({ username: "agent" });
    const { user } = await agent.engine.getUser({ organizationId: org.organizationId, userId: agent.userId });
    expect(user).toMatchObject({ userName: "agent", userEmail: "agent@example.test" });
    // With no policy, what the user asks for is denied: the hosted service's implicit deny.
    await expectCustodyError(
      agent.engine.createWallet({ organizationId: org.organizationId, parameters: { walletName: "w", accounts: [] } }),
      "PERMISSION_DENIED",
    );
    // A seeded organization gives its users seeded keys too.
    const again = await createTestOrganization({ seed: "users", startMs: Date.now() });
    opened.push(again);
    expect((await again.createUser({ name: "agent" })).apiKey).toEqual(agent.apiKey);
  });

  it("refuses policies the engine refuses, storing none of them", async () => {
    const org = await organization();
    const policies = [
      { effect: "EFFECT_ALLOW" as const, condition: SIGN },
      { effect: "EFFECT_DENY" as const, condition: "eth.tx.to ==" },
    ];
    await expectCustodyError(org.createUser({ name: "agent", policies }), "INVALID_ARGUMENT");
    expect((await org.root.getPolicies({ organizationId: org.organizationId })).policies).toEqual([]);
  });

  it("fails on a policy that would silently never match, unless asked to keep it", async () => {
    const org = await organization();
    const checksummed = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
    const policies = [
      { effect: "EFFECT_ALLOW" as const, condition: SIGN },
      { effect: "EFFECT_DENY" as const, condition: `eth.tx.to == '${checksummed}'` },
    ];
    const error = await expectCustodyError(org.createUser({ name: "agent", policies }), "FAILED_PRECONDITION");
    expect(error.details.reason).toBe("POLICY_WARNINGS");
    expect(error.message).toContain(checksummed);
    const kept = await org.createUser({ name: "agent2", policies, allowPolicyWarnings: true });
    expect(kept.policyIds).toHaveLength(2);
  });
});

describe("org.approve and org.reject", () => {
  /** An organization where `agent`'s signatures need `agent` and `second` both (2 of 2). */
  async function twoOfTwo() {
    const org = await organization({ listen: true });
    const signWith = await walletAddress(org);
    const second = await org.createUser({ name: "second" });
    const agent = await org.createUser({
      name: "agent",
      policies: [
        {
          effect: "EFFECT_ALLOW",
          condition: SIGN,
          consensus: (self) =>
            `approvers.any(user, user.id == '${self}') && approvers.any(user, user.id == '${second.userId}')`,
        },
      ],
    });
    return { org, signWith, agent, second };
  }

  it("completes a 2-of-2 signature from the error @turnkey/http's poller throws", async () => {
    const { org, signWith, agent, second } = await twoOfTwo();
    const client = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(agent.apiKey));
    const sign = createActivityPoller({
      client,
      requestFn: client.signRawPayload,
      refreshIntervalMs: TEST_ACTIVITY_POLLER.intervalMs,
    });
    const error = await sign({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: String(Date.now()),
      organizationId: org.organizationId,
      parameters: {
        signWith,
        payload: "0x68690a",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      },
    }).then(
      () => undefined,
      (e: unknown) => e as Error & { activityId?: string; activityStatus?: string },
    );
    expect(error?.activityStatus).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const approved = await org.approve(error, second);
    expect(approved.id).toBe(error?.activityId);
    expect(approved.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.result?.signRawPayloadResult).toMatchObject({ r: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("completes what @turnkey/sdk-server hands back pending, after a poll of milliseconds", async () => {
    const { org, signWith, agent, second } = await twoOfTwo();
    restoreFetch = org.installGlobalFetch();
    const client = new Turnkey(agent.turnkeyConfig).apiClient();
    const pending = await client.signRawPayload({
      signWith,
      payload: "0x68690a",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_KECCAK256",
    });
    expect(pending.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(agent.turnkeyConfig.activityPoller).toEqual(TEST_ACTIVITY_POLLER);
    expect((await org.approve(pending, second)).status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("rejects from @turnkey/viem's consensus error, and a vote by the root user meets the root quorum", async () => {
    const { org, signWith, agent } = await twoOfTwo();
    restoreFetch = org.installGlobalFetch();
    const account = await createAccount({
      client: new Turnkey(agent.turnkeyConfig).apiClient() as never,
      organizationId: org.organizationId,
      signWith,
    });
    const first = await account.signTransaction(transfer(PAYEE)).then(
      () => undefined,
      (e: unknown) => e as Error & { activityId?: string },
    );
    expect(first?.name).toBe("TurnkeyConsensusNeededError");
    expect((await org.reject(first)).status).toBe("ACTIVITY_STATUS_REJECTED");

    const second = await account.signTransaction({ ...transfer(PAYEE), nonce: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const approved = await org.approve(second);
    const { signedTransaction } = approved.result!.signTransactionResult as { signedTransaction: string };
    expect(
      await recoverTransactionAddress({ serializedTransaction: `0x${signedTransaction}` as `0x02${string}` }),
    ).toBe(signWith);
  });

  it("takes an activity or its id from the in-process engine as well", async () => {
    const { org, signWith, agent, second } = await twoOfTwo();
    const parameters = {
      signWith,
      payload: "0x6869",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
      hashFunction: "HASH_FUNCTION_KECCAK256" as const,
    };
    const { activity } = await agent.engine.signRawPayload({ organizationId: org.organizationId, parameters });
    expect(activityOf(activity)).toEqual({ activityId: activity.id, organizationId: org.organizationId });
    expect((await org.approve(activity.id, second.userId)).status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("refuses what names no activity, and an activity that is not pending", async () => {
    const { org, signWith, agent, second } = await twoOfTwo();
    for (const nothing of [undefined, null, "", 42, {}, new Error("Failed to sign: network down"), { cause: {} }]) {
      await expectCustodyError(org.approve(nothing), "INVALID_ARGUMENT", "activity");
    }
    await expectCustodyError(org.approve("not-an-activity"), "NOT_FOUND");
    const { activity } = await agent.engine.signRawPayload({
      organizationId: org.organizationId,
      parameters: {
        signWith,
        payload: "0x6869",
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      },
    });
    await org.approve(activity, second);
    const again = await org.approve(activity, second).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(again?.code).toBeDefined();
  });
});

describe("the in-process fetch", () => {
  it("is seen from loopback, so an IP allow-list admits it when it lists 127.0.0.1 and only then", async () => {
    const org = await organization();
    const whoami = async () => {
      const body = JSON.stringify({ organizationId: org.organizationId });
      const stamp = stampWithApiKey(body, org.apiKey);
      return org.fetch(`${org.baseUrl}/public/v1/query/whoami`, {
        method: "POST",
        body,
        headers: { [stamp.stampHeaderName]: stamp.stampHeaderValue },
      });
    };
    const allow = (cidr: string) =>
      org.root.setIpAllowlist({ organizationId: org.organizationId, parameters: { enabled: true, rules: [{ cidr }] } });
    await allow("127.0.0.1/32");
    expect((await whoami()).status).toBe(200);
    await allow("10.0.0.0/24");
    expect((await whoami()).status).toBe(403);
  });
});
