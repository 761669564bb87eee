/**
 * A policy denial as the official clients see it, byte for byte what the hosted service answers:
 * - explicit deny: code 7, `policy engine denied request explicitly`, `details: []`, which @turnkey/viem
 *   surfaces as `Failed to sign: Turnkey error 7: policy engine denied request explicitly (Details: [])`
 *   (the viem and ethers packages' own test snapshots);
 * - implicit deny: code 7, "You don't have sufficient permissions to take this action. ...", with one
 *   `PolicyEnginePermissionError` detail, "No policies evaluated to outcome: Allow", listing each policy's
 *   outcome (the solana example's README).
 * The denied activity is still recorded, and its reasons stay available through `get_policy_evaluations`
 * and `engine.explainActivity`.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { computeActivityFingerprint } from "@turnkey/crypto";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { createAccount } from "@turnkey/viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { addPolicy, type Member, organizationWithMembers, walletParameters } from "../support/consensus.js";
import { post, type RunningServer, serve } from "../support/server.js";

const EXPLICIT = "policy engine denied request explicitly";
const IMPLICIT =
  "You don't have sufficient permissions to take this action. Please add a policy granting this user " +
  "permissions. Learn more at https://docs.turnkey.com/concepts/policies/quickstart.";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let agent: Member;
let ethAddress: string;
let allowId: string;
let denyId: string;

function client(member: Member = agent) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: member.key.publicKey, apiPrivateKey: member.key.privateKey }),
  );
}

beforeAll(async () => {
  const fixture = await organizationWithMembers(["agent"]);
  ({ engine, organizationId } = fixture);
  agent = fixture.members.agent;
  const { activity } = await fixture.root.createWallet({ organizationId, parameters: walletParameters("treasury") });
  ethAddress = (activity.result!.createWalletResult as { addresses: string[] }).addresses[0]!;
  allowId = await addPolicy(fixture.root, organizationId, {
    policyName: "the agent signs",
    effect: "EFFECT_ALLOW",
    condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    consensus: `approvers.any(user, user.id == '${agent.userId}')`,
  });
  denyId = await addPolicy(fixture.root, organizationId, {
    policyName: "no typed data",
    effect: "EFFECT_DENY",
    condition: "activity.params.encoding == 'PAYLOAD_ENCODING_EIP712'",
  });
  server = await serve(engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

/** The recorded activity of a stamped body, found the way a client can: by its fingerprint. */
async function recorded(body: string) {
  const fingerprint = computeActivityFingerprint(body);
  const { activities } = await client().getActivities({
    organizationId,
    filterByStatus: ["ACTIVITY_STATUS_FAILED"],
    paginationOptions: { limit: "100" },
  });
  const activity = activities.find((each) => each.fingerprint === fingerprint);
  expect(activity).toBeDefined();
  return activity!;
}

describe("explicit deny", () => {
  it("reaches @turnkey/viem exactly as the hosted service's does", async () => {
    const account = await createAccount({ client: client() as never, organizationId, signWith: ethAddress });
    expect(await account.signMessage({ message: "allowed" })).toMatch(/^0x[0-9a-f]{130}$/);
    const error = await account
      .signTypedData({
        domain: { name: "Ether Mail", version: "1", chainId: 1 },
        types: { Mail: [{ name: "contents", type: "string" }] },
        primaryType: "Mail",
        message: { contents: "denied" },
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { shortMessage?: string },
      );
    expect(error?.name).toBe("TurnkeyActivityError");
    // Newer viem appends its version to `message`; `shortMessage` is the snapshot's text.
    expect(error?.shortMessage).toBe(`Failed to sign: Turnkey error 7: ${EXPLICIT} (Details: [])`);
  });

  it("answers 403 with exactly {code, message, details: []}, records the activity, and keeps the reasons", async () => {
    const signed = await client().stampSignRawPayload({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        signWith: ethAddress,
        payload: JSON.stringify({
          types: { EIP712Domain: [{ name: "name", type: "string" }], Mail: [{ name: "contents", type: "string" }] },
          domain: { name: "Ether Mail" },
          primaryType: "Mail",
          message: { contents: "denied" },
        }),
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    const headers = { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue };
    const answer = await post(signed.url, signed.body, headers);
    expect(answer.status).toBe(403);
    expect(answer.text).toBe(JSON.stringify({ code: 7, message: EXPLICIT, details: [] }));
    // The same body again: the same activity, the same answer.
    expect((await post(signed.url, signed.body, headers)).text).toBe(answer.text);

    const activity = await recorded(signed.body);
    expect(activity.failure).toEqual({ code: 7, message: EXPLICIT, details: [] });
    const { policyEvaluations } = await client().getPolicyEvaluations({ organizationId, activityId: activity.id });
    expect(policyEvaluations.flatMap((each) => each.policyEvaluations)).toEqual([
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);
    const { decisions } = await engine.explainActivity(activity.id);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ outcome: "DENY", reason: "EXPLICIT_DENY" });
    expect(decisions[0]!.summary).toContain("no typed data");
  });
});

describe("implicit deny", () => {
  it("answers what the hosted service answers when no policy allows, and records the activity", async () => {
    const body = {
      type: "ACTIVITY_TYPE_CREATE_WALLET" as const,
      timestampMs: String(Date.now()),
      organizationId,
      parameters: walletParameters("not allowed"),
    };
    const error = await client()
      .createWallet(body)
      .then(
        () => undefined,
        (e: unknown) => e as TurnkeyRequestError,
      );
    expect(error).toBeInstanceOf(TurnkeyRequestError);
    const details = [
      {
        "@type": "type.googleapis.com/errors.v1.PolicyEnginePermissionError",
        message: "No policies evaluated to outcome: Allow",
        policyEvaluations: [
          { policyId: allowId, outcome: "OUTCOME_DENY_IMPLICIT" },
          // A create_wallet has no `encoding` parameter: the deny policy's condition cannot be evaluated.
          { policyId: denyId, outcome: "OUTCOME_ERROR" },
        ],
      },
    ];
    expect(error?.code).toBe(7);
    expect(error?.details).toEqual(details);
    expect(error?.message).toBe(`Turnkey error 7: ${IMPLICIT} (Details: ${JSON.stringify(details)})`);
    expect((await client().getWallets({ organizationId })).wallets.map((w) => w.walletName)).toEqual(["treasury"]);

    const signed = await client().stampCreateWallet(body);
    const activity = await recorded(signed.body);
    expect(activity.failure).toEqual({ code: 7, message: IMPLICIT, details });
    const { policyEvaluations } = await client().getPolicyEvaluations({ organizationId, activityId: activity.id });
    expect(policyEvaluations).toHaveLength(1);
    const [decision] = (await engine.explainActivity(activity.id)).decisions;
    expect(decision).toMatchObject({ outcome: "DENY", reason: "IMPLICIT_DENY" });
    expect(decision!.summary).toMatch(/^denied: no policy allows it \(policy "no typed data" .* failed/);
  });
});
