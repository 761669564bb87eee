/**
 * The policy context the engine builds for an activity: kind, resource/action and exposed params; the
 * approvers with their tags and the credentials they stamped with; the target a row's `policyTarget`
 * supplies; and the decision taken with it, once per key for an activity acting with several keys.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineActivity, type PolicyTargetData, type PolicyTargets } from "../../src/contract/operation.js";
import { privateKeyPolicyData, walletAccountTarget } from "../../src/domain/policy-targets.js";
import { decideActivity } from "../../src/engine/decisions/decision.js";
import {
  activityKind,
  buildPolicyContexts,
  exposedParameters,
  isSeveralContexts,
} from "../../src/engine/decisions/policy-context.js";
import type { CustodyEngine } from "../../src/index.js";
import { DataReader } from "../../src/model/data.js";
import type { VoteRecord } from "../../src/model/records.js";
import { consensusCouldCount } from "../../src/policy/index.js";
import type { PolicyContext } from "../../src/policy/types.js";
import { addPolicy, type Member, organizationWithMembers, tagUsers, walletParameters } from "../support/consensus.js";

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

/** A row acting with several keys at once, as `sol_send_transaction` does: one target per account it names. */
const signWithAccounts = defineActivity({
  method: "signWithSeveral",
  path: "sign_with_several",
  versions: [
    {
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      intent: "signTransactionIntentV2",
      result: "signTransactionResult",
      parameters: v.object({ walletAccountIds: v.array(v.string()), type: v.string() }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params): Promise<PolicyTargets> {
    const targets: PolicyTargetData[] = [];
    for (const id of params.walletAccountIds) {
      targets.push(
        await walletAccountTarget(context.data, await context.data.require("walletAccounts", id, "account")),
      );
    }
    const [first, ...others] = targets;
    if (!first) return {};
    return others.length === 0 ? first : [first, ...others];
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

/** The principal who submitted: the first vote's user and credential, in `organizationId`. */
function submitterOf(vote: VoteRecord, organizationId: string) {
  return {
    userId: vote.userId,
    organizationId,
    credential: { ...vote.credential, publicKey: "", scheme: "", signature: "" },
  };
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

    const built = await read(engine, async (data) => {
      const organization = await data.require("organizations", organizationId, "organization");
      return buildPolicyContexts({
        data,
        organization,
        operation: signWithAccount,
        version: signWithAccount.versions[0],
        parameters,
        votes,
        submitter: submitterOf(votes[0]!, organizationId),
        now: NOW,
      });
    });
    // One target, one context.
    expect(isSeveralContexts(built)).toBe(false);
    const context = built as PolicyContext;
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
          submitter: submitterOf(votes[0]!, organizationId),
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

  it("decides an activity acting with several keys once per key: the worst decision settles it", async () => {
    const { engine, root, organizationId, members, rootUserId, rootKey } = await organizationWithMembers([
      "alice",
      "bob",
      "carol",
    ]);
    const accounts: Record<string, string> = {};
    for (const name of ["Hot", "Cold", "Warm", "Stray", "Frozen"]) {
      const { activity } = await root.createWallet({ organizationId, parameters: walletParameters(name) });
      const { walletId } = activity.result!.createWalletResult as { walletId: string };
      accounts[name] = (await root.getWalletAccounts({ organizationId, walletId })).accounts[0]!.walletAccountId;
    }
    // Consensus policies count the submitter (alice), so they wait rather than not apply.
    const by = (member: Member) => `approvers.any(user, user.id == '${member.userId}')`;
    const byAlice = by(members.alice);
    const hot = await addPolicy(root, organizationId, {
      policyName: "hot signs",
      effect: "EFFECT_ALLOW",
      condition: "activity.action == 'SIGN' && wallet.label == 'Hot'",
    });
    const coldOrWarm = await addPolicy(root, organizationId, {
      policyName: "cold and warm with bob and carol",
      effect: "EFFECT_ALLOW",
      condition: "wallet.label in ['Cold', 'Warm']",
      consensus: `${byAlice} && ${by(members.bob)} && ${by(members.carol)}`,
    });
    const cold = await addPolicy(root, organizationId, {
      policyName: "cold with bob",
      effect: "EFFECT_ALLOW",
      condition: "wallet.label == 'Cold'",
      consensus: `${byAlice} && ${by(members.bob)}`,
    });
    const frozen = await addPolicy(root, organizationId, {
      policyName: "frozen never signs",
      effect: "EFFECT_DENY",
      condition: "wallet.label == 'Frozen'",
    });
    const decideFor = (names: string[], voters: Pick<Member, "userId" | "key">[] = []) =>
      read(engine, async (data) => {
        const organization = await data.require("organizations", organizationId, "organization");
        const votes = [members.alice, ...voters].map((member) => voteBy(member.userId, member.key.publicKey));
        return decideActivity({
          data,
          organization,
          governing: organization,
          operation: signWithAccounts,
          version: signWithAccounts.versions[0],
          parameters: { walletAccountIds: names.map((name) => accounts[name]!), type: "T" },
          votes,
          submitter: submitterOf(votes[0]!, organizationId),
          now: NOW,
        });
      });
    const labelOf = (decision: { context: PolicyContext }) => (decision.context.wallet as { label: string }).label;

    expect(await decideFor(["Hot"])).toMatchObject({ outcome: "ALLOW", reason: "POLICY_ALLOW", openConsensus: [] });

    // Hot is allowed, Cold waits: the activity waits, open to the consensus Cold waits for.
    const waiting = await decideFor(["Hot", "Cold"]);
    expect(waiting).toMatchObject({ outcome: "CONSENSUS_NEEDED", reason: "CONSENSUS_PENDING" });
    expect(waiting.openConsensus.map((open) => open.policyId).sort()).toEqual([coldOrWarm, cold].sort());
    expect(labelOf(waiting)).toBe("Cold");
    expect(await decideFor(["Hot", "Cold"], [members.bob])).toMatchObject({ outcome: "ALLOW" });

    // Two keys waiting: every consensus either waits for, each once; bob's vote alone leaves Warm waiting.
    const both = await decideFor(["Cold", "Warm"]);
    expect(both.outcome).toBe("CONSENSUS_NEEDED");
    expect(both.openConsensus.map((open) => open.policyId).sort()).toEqual([coldOrWarm, cold].sort());
    const bobOnly = await decideFor(["Cold", "Warm"], [members.bob]);
    expect(bobOnly.outcome).toBe("CONSENSUS_NEEDED");
    expect(bobOnly.openConsensus.map((open) => open.policyId)).toEqual([coldOrWarm]);
    expect(labelOf(bobOnly)).toBe("Warm");
    expect(await decideFor(["Cold", "Warm"], [members.bob, members.carol])).toMatchObject({ outcome: "ALLOW" });

    // A key nothing allows denies the whole activity, even when the others are allowed or waiting.
    const stray = await decideFor(["Hot", "Stray", "Cold"]);
    expect(stray).toMatchObject({ outcome: "DENY", reason: "IMPLICIT_DENY", openConsensus: [] });
    expect(labelOf(stray)).toBe("Stray");
    expect(stray.evaluations.map((evaluation) => evaluation.outcome)).not.toContain("OUTCOME_ALLOW");

    // An explicit deny of any key wins over an implicit one met first, and is what the record shows.
    const denied = await decideFor(["Stray", "Hot", "Frozen"], [members.bob]);
    expect(denied).toMatchObject({ outcome: "DENY", reason: "EXPLICIT_DENY", openConsensus: [] });
    expect(labelOf(denied)).toBe("Frozen");
    expect(denied.evaluations.find((evaluation) => evaluation.policyId === frozen)?.outcome).toBe(
      "OUTCOME_DENY_EXPLICIT",
    );
    expect(denied.evaluations.find((evaluation) => evaluation.policyId === hot)?.outcome).not.toBe("OUTCOME_ALLOW");

    // The root quorum comes before policies, for every key alike.
    expect(await decideFor(["Stray", "Frozen"], [{ userId: rootUserId, key: rootKey }])).toMatchObject({
      outcome: "ALLOW",
      reason: "ROOT_QUORUM",
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
