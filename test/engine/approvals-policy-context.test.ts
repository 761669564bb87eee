/**
 * The policy context the engine builds for an activity: kind, resource/action and exposed params; the
 * approvers with their tags and the credentials they stamped with; the target a row's `policyTarget`
 * supplies; and the decision taken with it.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { DataReader } from "../../src/engine/data.js";
import { decideActivity } from "../../src/engine/decision.js";
import { activityKind, buildPolicyContext, exposedParameters } from "../../src/engine/policy-context.js";
import { privateKeyPolicyData, walletAccountTarget } from "../../src/engine/policy-targets.js";
import type { VoteRecord } from "../../src/engine/records.js";
import type { CustodyEngine } from "../../src/index.js";
import { defineActivity } from "../../src/operations/define.js";
import { consensusCouldCount } from "../../src/policy/index.js";
import { addPolicy, organizationWithMembers, tagUsers, walletParameters } from "../support/consensus.js";

const NOW = Date.UTC(2026, 0, 5, 10, 30);

/** A signing row as a signing operation declares it, whose target is the wallet account it names. */
const signWithAccount = defineActivity({
  method: "signSomething",
  path: "sign_something",
  versions: [
    {
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      intent: "signRawPayloadIntentV2",
      result: "signRawPayloadResult",
      parameters: v.object({ walletAccountId: v.string(), encoding: v.string(), hashFunction: v.string() }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params) {
    const account = await context.data.require("walletAccounts", params.walletAccountId, "wallet account");
    return walletAccountTarget(context.data, account);
  },
  async handler() {
    return {};
  },
});

function voteBy(userId: string, publicKey: string, selection: VoteRecord["selection"] = "VOTE_SELECTION_APPROVED") {
  return {
    id: `vote-${userId}`,
    userId,
    selection,
    message: "{}",
    publicKey,
    signature: "",
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    credential: { kind: "apiKey" as const, id: `key-${userId}`, type: "CREDENTIAL_TYPE_API_KEY_P256" },
    createdAtMs: NOW,
  } satisfies VoteRecord;
}

async function read<T>(engine: CustodyEngine, work: (data: DataReader) => Promise<T>): Promise<T> {
  return engine.store.read((reader) => work(new DataReader(reader)));
}

describe("the policy context", () => {
  it("names the kind without its version and exposes only the spec's parameters", () => {
    expect(activityKind("ACTIVITY_TYPE_SIGN_TRANSACTION_V2")).toBe("SIGN_TRANSACTION");
    expect(activityKind("ACTIVITY_TYPE_CREATE_WALLET")).toBe("CREATE_WALLET");
    expect(
      exposedParameters("SIGN_RAW_PAYLOADS", {
        signWith: "0xabc",
        payloads: ["00"],
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      }),
    ).toEqual({ encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hash_function: "HASH_FUNCTION_NO_OP" });
    expect(exposedParameters("DELETE_API_KEYS", { userId: "u", apiKeyIds: ["k"] })).toEqual({
      user_id: "u",
      api_key_ids: ["k"],
    });
    expect(exposedParameters("CREATE_WALLET", { walletName: "w" })).toEqual({});
  });

  it("builds approvers with tags, their credentials, the target and the trusted time", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["alice", "bob"]);
    const ops = await tagUsers(root, organizationId, "ops", [members.bob.userId]);
    const { activity } = await root.createWallet({ organizationId, parameters: walletParameters("Treasury") });
    const { walletId } = activity.result!.createWalletResult as { walletId: string };
    const [account] = (await root.getWalletAccounts({ organizationId, walletId })).accounts;
    const parameters = { walletAccountId: account!.walletAccountId, encoding: "E", hashFunction: "H" };
    const votes = [
      voteBy(members.alice.userId, members.alice.key.publicKey),
      voteBy(members.bob.userId, members.bob.key.publicKey),
      voteBy(members.bob.userId, "ignored", "VOTE_SELECTION_REJECTED"),
    ];

    const context = await read(engine, async (data) => {
      const organization = await data.require("organizations", organizationId, "organization");
      return buildPolicyContext({
        data,
        organization,
        operation: signWithAccount,
        version: signWithAccount.versions[0],
        parameters,
        votes,
        submitter: {
          userId: members.alice.userId,
          organizationId,
          credential: { ...votes[0]!.credential, publicKey: "", scheme: "", signature: "" },
        },
        now: NOW,
      });
    });
    expect(context.activity).toEqual({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      kind: "SIGN_RAW_PAYLOAD",
      resource: "PRIVATE_KEY",
      action: "SIGN",
      params: { encoding: "E", hash_function: "H" },
    });
    expect(context.approvers).toEqual([
      { id: members.alice.userId, email: "", alias: "alice", tags: [] },
      { id: members.bob.userId, email: "", alias: "bob", tags: [ops] },
    ]);
    expect(context.credentials).toEqual([
      {
        id: `key-${members.alice.userId}`,
        user_id: members.alice.userId,
        type: "CREDENTIAL_TYPE_API_KEY_P256",
        public_key: members.alice.key.publicKey,
      },
      {
        id: `key-${members.bob.userId}`,
        user_id: members.bob.userId,
        type: "CREDENTIAL_TYPE_API_KEY_P256",
        public_key: members.bob.key.publicKey,
      },
    ]);
    expect(context.wallet).toEqual({ id: walletId, label: "Treasury", imported: false, exported: false });
    expect(context.wallet_account).toEqual({ address: account!.address });
    expect(context.private_key).toBeUndefined();
    expect(context.time).toEqual({ now: new Date(NOW) });
  });

  it("decides with the target's keywords, so a policy can allow signing with one wallet only", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["alice"]);
    const made = await Promise.all(
      ["Hot", "Cold"].map(async (name) => {
        const { activity } = await root.createWallet({ organizationId, parameters: walletParameters(name) });
        const { walletId } = activity.result!.createWalletResult as { walletId: string };
        const [account] = (await root.getWalletAccounts({ organizationId, walletId })).accounts;
        return account!.walletAccountId;
      }),
    );
    const policyId = await addPolicy(root, organizationId, {
      policyName: "hot wallet only",
      effect: "EFFECT_ALLOW",
      condition: "activity.action == 'SIGN' && wallet.label == 'Hot'",
    });
    const decideFor = (walletAccountId: string) =>
      read(engine, async (data) => {
        const organization = await data.require("organizations", organizationId, "organization");
        const votes = [voteBy(members.alice.userId, members.alice.key.publicKey)];
        return decideActivity({
          data,
          organization,
          governing: organization,
          operation: signWithAccount,
          version: signWithAccount.versions[0],
          parameters: { walletAccountId, encoding: "E", hashFunction: "H" },
          votes,
          submitter: {
            userId: members.alice.userId,
            organizationId,
            credential: { ...votes[0]!.credential, publicKey: "", scheme: "", signature: "" },
          },
          now: NOW,
        });
      });
    const hot = await decideFor(made[0]!);
    expect(hot).toMatchObject({
      outcome: "ALLOW",
      reason: "POLICY_ALLOW",
      evaluations: [{ policyId, outcome: "OUTCOME_ALLOW" }],
    });
    const cold = await decideFor(made[1]!);
    expect(cold).toMatchObject({
      outcome: "DENY",
      reason: "IMPLICIT_DENY",
      evaluations: [{ outcome: "OUTCOME_DENY_IMPLICIT" }],
    });
  });

  it("shows a private key with its tag ids and flags", async () => {
    const { root, organizationId, engine } = await organizationWithMembers([]);
    const { activity } = await root.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "k",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
        ],
      },
    });
    const [{ privateKeyId }] = (
      activity.result!.createPrivateKeysResultV2 as { privateKeys: { privateKeyId: string }[] }
    ).privateKeys as [{ privateKeyId: string }];
    const key = await read(engine, (data) => data.require("privateKeys", privateKeyId, "private key"));
    expect(privateKeyPolicyData(key)).toEqual({
      id: privateKeyId,
      label: "k",
      tags: [],
      imported: false,
      exported: false,
    });
  });
});

describe("consensusCouldCount (who may vote)", () => {
  const dave = { id: "dave", tags: ["ops"] };
  const apiKey = { id: "k", user_id: "dave", type: "CREDENTIAL_TYPE_API_KEY_P256", public_key: "02ab" };

  it("counts a voter who satisfies some quantifier body over approvers or credentials", () => {
    expect(consensusCouldCount("approvers.any(user, user.tags.contains('ops')) && approvers.count() >= 2", dave)).toBe(
      true,
    );
    expect(
      consensusCouldCount("approvers.any(user, user.id == 'erin') && approvers.any(user, user.id == 'fay')", dave),
    ).toBe(false);
    const passkeys = "credentials.any(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')";
    expect(consensusCouldCount(passkeys, dave, [apiKey])).toBe(false);
    expect(consensusCouldCount(passkeys, dave, [{ ...apiKey, type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" }])).toBe(
      true,
    );
  });

  it("counts anyone for a consensus without a per-user clause, and no one for one that does not parse", () => {
    expect(consensusCouldCount("approvers.count() >= 3", dave)).toBe(true);
    expect(consensusCouldCount("  ", dave)).toBe(true);
    expect(consensusCouldCount("approvers.any(user, ", dave)).toBe(false);
  });
});
