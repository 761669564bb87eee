/**
 * Policies written as a user wrote them, that could never do what they say:
 * - a field its keyword does not have (`eth.tx.recipient`) is refused when the policy is written, naming the
 *   field and the closest one, by the engine and over HTTP, and nothing is stored;
 * - a checksummed address compared with an `eth` value (which are lower case) is stored, as the hosted
 *   service stores it, and the writing activity's explanation warns that it never matches;
 * - a condition that errors when evaluated is named in the explanation of every decision it took part in.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { describe, expect, it } from "vitest";
import { addPolicy, organizationWithMembers, refusal, walletParameters } from "../support/consensus.js";
import { engineWithOrganization } from "../support/engine.js";
import { serve } from "../support/server.js";

const base = { policyName: "p", effect: "EFFECT_ALLOW" as const, notes: "" };
const CHECKSUMMED = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";

describe("a field the policy language does not define", () => {
  it("is refused by create_policy, naming the field, the keyword and the closest field, and nothing is stored", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const condition = "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.recipient == '0xabc'";
    const error = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition } }),
      "INVALID_ARGUMENT",
      "POLICY_UNKNOWN_FIELD",
    );
    expect(error.details.field).toBe("parameters.condition");
    expect(error.details.position).toBe(condition.indexOf("recipient"));
    expect(error.details.suggestion).toBe("to");
    expect(error.message).toContain("eth.tx has no field 'recipient' (did you mean 'to'?)");
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);
  });

  it.each([
    ["activity.params.usr_id == 'u'", "activity.params has no field 'usr_id' (did you mean 'user_id'?)"],
    ["eth.tx.chainId == 1", "eth.tx has no field 'chainId' (did you mean 'chain_id'?)"],
    ["wallet.name == 'treasury'", "wallet has no field 'name'; its fields are id, label, imported, exported"],
    [
      "solana.tx.instructions.any(i, i.program_keys.count() > 0)",
      "i (an element of solana.tx.instructions) has no field 'program_keys' (did you mean 'program_key'?)",
    ],
    ["solana.tx.transfers.amount > 0", "solana.tx.transfers is a list and has no field 'amount'"],
    ["activity.type.kind == 'x'", "activity.type is a single value and has no field 'kind'"],
    ["activity['resorce'] == 'WALLET'", "activity has no field 'resorce' (did you mean 'resource'?)"],
  ])("refuses %s", async (condition, message) => {
    const { root, organizationId } = await engineWithOrganization();
    const error = await refusal(
      root.createPolicy({ organizationId, parameters: { ...base, condition } }),
      "INVALID_ARGUMENT",
      "POLICY_UNKNOWN_FIELD",
    );
    expect(error.message).toContain(message);
  });

  it("is refused in a consensus, through the lambda variable, by update_policy, which then changes nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, { ...base, consensus: "approvers.count() >= 1" });
    const before = (await root.getPolicy({ organizationId, policyId })).policy;
    const error = await refusal(
      root.updatePolicy({
        organizationId,
        parameters: { policyId, policyConsensus: "approvers.any(user, user.idd == 'someone')" },
      }),
      "INVALID_ARGUMENT",
      "POLICY_UNKNOWN_FIELD",
    );
    expect(error.details.field).toBe("parameters.policyConsensus");
    expect(error.message).toContain("user (an element of approvers) has no field 'idd' (did you mean 'id'?)");
    expect((await root.getPolicy({ organizationId, policyId })).policy).toEqual(before);
  });

  it("is refused by create_policies naming the policy at fault, and none of them is stored", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const error = await refusal(
      root.createPolicies({
        organizationId,
        parameters: {
          policies: [
            { ...base, condition: "activity.resource == 'WALLET'" },
            { ...base, condition: "bitcoin.tx.outputs.all(o, o.adress == 'bc1q')" },
          ],
        },
      }),
      "INVALID_ARGUMENT",
      "POLICY_UNKNOWN_FIELD",
    );
    expect(error.details.field).toBe("parameters.policies[1].condition");
    expect(error.details.suggestion).toBe("address");
    expect((await root.getPolicies({ organizationId })).policies).toEqual([]);
  });

  it("is refused in a selector subject", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const error = await refusal(
      root.createPolicy({
        organizationId,
        type: "ACTIVITY_TYPE_CREATE_POLICY",
        parameters: {
          policyName: "selectors",
          effect: "EFFECT_ALLOW",
          notes: "",
          selectors: [{ subject: "eth.tx.recipient", operator: "OPERATOR_EQUAL", target: "0xabc" }],
        },
      }),
      "INVALID_ARGUMENT",
      "POLICY_INVALID_SELECTOR",
    );
    expect(error.details.field).toBe("parameters.selectors[0].subject");
    expect(error.message).toContain("did you mean 'to'?");
  });

  it("is answered over HTTP with code 3 and the same message, to the official client", async () => {
    const { engine, organizationId, rootKey } = await engineWithOrganization();
    const server = await serve(engine);
    try {
      const client = new TurnkeyClient(
        { baseUrl: server.baseUrl },
        new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
      );
      const sent = client.createPolicy({
        type: "ACTIVITY_TYPE_CREATE_POLICY_V3",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { ...base, condition: "eth.tx.recipient == '0xabc'" },
      });
      const error = (await sent.then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; message?: string } | undefined;
      expect(error?.code).toBe(3);
      expect(error?.message).toContain("condition: eth.tx has no field 'recipient' (did you mean 'to'?)");
      expect(server.errors).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("accepts every field the language defines, and the open maps past them", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const conditions = [
      "eth.tx.to == '0x0000000000000000000000000000000000000001' && eth.tx.gasPrice > 0 && eth.tx.gas_price > 0",
      "eth.tx.contract_call_args['amount'] < 100 && eth.tx.function_name == 'transfer'",
      "eth.eip_712.domain.verifying_contract == '0xab' && eth.eip_712.message['anything'] == 'x'",
      "solana.tx.instructions.all(i, i.parsed_instruction_data.named_accounts['to'] == 'x')",
      "solana.tx.spl_transfers.any(t, t.signers.count() == 0 && t.token_mint == 'm')",
      "tron.tx.contract[0].to_address == 'T' && tron.tx.fee_limit < 10",
      "bitcoin.tx.outputs.filter(o, o.address_type == 'p2wpkh').count == 1 && bitcoin.tx.locktime.amount == 0",
      "private_key.tags.contains('t') && activity.params.user_ids.contains('u')",
    ];
    for (const condition of conditions) {
      const { activity } = await root.createPolicy({ organizationId, parameters: { ...base, condition } });
      expect(activity.status, condition).toBe("ACTIVITY_STATUS_COMPLETED");
    }
    const consensus =
      "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256') && approvers.any(u, u.email == 'e')";
    const { activity } = await root.createPolicy({ organizationId, parameters: { ...base, consensus } });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});

describe("a checksummed address compared with an eth value", () => {
  it("is stored, as the hosted service stores it, and the activity's explanation warns it never matches", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const condition = `eth.tx.to == '${CHECKSUMMED}'`;
    const { activity } = await root.createPolicy({ organizationId, parameters: { ...base, condition } });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.result).toEqual({ createPolicyResult: { policyId: expect.any(String) } });
    const { notes } = await engine.explainActivity(activity.id);
    expect(notes).toEqual([
      `parameters.condition (character 14): the address '${CHECKSUMMED}' is not lower case, and eth values are, ` +
        `so it never matches; write '${CHECKSUMMED.toLowerCase()}'`,
    ]);
  });

  it("is warned of in a list, in contains() and in an update, but not when compared with a wallet account", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const policyId = await addPolicy(root, organizationId, {
      ...base,
      condition: `wallet_account.address == '${CHECKSUMMED}' && eth.tx.to == '${CHECKSUMMED.toLowerCase()}'`,
    });
    const { activity } = await root.updatePolicy({
      organizationId,
      parameters: {
        policyId,
        policyCondition: `eth.tx.to in ['${CHECKSUMMED}'] || eth.tx.data.contains('0xA9059CBB')`,
      },
    });
    const { notes } = await engine.explainActivity(activity.id);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^parameters\.policyCondition \(character 15\): the address '0xA0b8/);
    expect(notes[1]).toContain("the hex value '0xA9059CBB' is not lower case");
    const created = (await root.getActivities({ organizationId })).activities.find(
      (each) => each.type === "ACTIVITY_TYPE_CREATE_POLICY_V3",
    );
    expect((await engine.explainActivity(created!.id)).notes).toEqual([]);
  });
});

describe("a condition that errors when evaluated", () => {
  it("is named, with its policy and message, in the explanation of a denial it leaves undecided", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["agent"]);
    // A wallet is created, not signed with: `wallet` is missing, so the condition errors and allows nothing.
    const policyId = await addPolicy(root, organizationId, {
      policyName: "agent's wallet",
      effect: "EFFECT_ALLOW",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET' && wallet.label == 'treasury'",
    });
    const error = await refusal(
      members.agent.as.createWallet({ organizationId, parameters: walletParameters("treasury") }),
      "PERMISSION_DENIED",
    );
    const explanation = await engine.explainActivity(error.details.activityId as string);
    const [decision] = explanation.decisions;
    expect(decision?.decidingPolicy).toEqual({ policyId, policyName: "agent's wallet" });
    expect(decision?.failures).toEqual([
      expect.stringMatching(/^policy "agent's wallet" \(.+\) failed in its condition: .*wallet/),
    ]);
    expect(decision?.reasonPhrase).toMatch(/^no policy allows it; its condition failed: .*wallet/);
    expect(decision?.summary).toContain(decision?.failures[0]);
  });

  it("is named in the explanation even when another policy allows the activity", async () => {
    const { engine, root, organizationId, members } = await organizationWithMembers(["agent"]);
    await addPolicy(root, organizationId, {
      policyName: "wallets",
      effect: "EFFECT_ALLOW",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'",
    });
    await addPolicy(root, organizationId, {
      policyName: "broken",
      effect: "EFFECT_DENY",
      condition: "wallet.label == 'treasury'",
    });
    const { activity } = await members.agent.as.createWallet({ organizationId, parameters: walletParameters("w") });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const [decision] = (await engine.explainActivity(activity.id)).decisions;
    expect(decision?.summary).toMatch(
      /^allowed by policy "wallets" .* \(policy "broken" \(.+\) failed in its condition: /,
    );
    expect(decision?.failures).toHaveLength(1);
  });
});
