/**
 * The literal rows a client writes and reads back, through the HTTP adapter with the official clients:
 * `create_policy` and `create_policies` without `notes` (optional, absent means empty), and the request's
 * `timestampMs` carried on every activity record, completed or failed.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient, type TurnkeyRequestError } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletParameters } from "../support/consensus.js";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let rootKey: ApiKeyPair;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  ({ organizationId, rootKey } = fixture);
  server = await serve(fixture.engine);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

function sdk() {
  return new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: rootKey.publicKey,
    apiPrivateKey: rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

function http() {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
  );
}

type CreatePolicyInput = Parameters<ReturnType<typeof sdk>["createPolicy"]>[0];
type CreatePoliciesInput = Parameters<ReturnType<typeof sdk>["createPolicies"]>[0];

describe("policies without notes", () => {
  it("create_policy takes no notes and stores them empty", async () => {
    // The generated client types call `notes` required; the service's reference does not.
    const input = { policyName: "no notes", effect: "EFFECT_ALLOW", condition: "false" } as CreatePolicyInput;
    const { policyId, activity } = await sdk().createPolicy(input);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.intent.createPolicyIntentV3).toEqual(input);
    const { policy } = await sdk().getPolicy({ policyId });
    expect(policy.notes).toBe("");
  });

  it("create_policies takes items without notes, next to items with them", async () => {
    const input = {
      policies: [
        { policyName: "bare", effect: "EFFECT_DENY", condition: "false" },
        { policyName: "noted", effect: "EFFECT_DENY", condition: "false", notes: "kept" },
      ],
    } as CreatePoliciesInput;
    const { policyIds } = await sdk().createPolicies(input);
    const notes = await Promise.all(policyIds.map(async (policyId) => (await sdk().getPolicy({ policyId })).policy));
    expect(notes.map((policy) => [policy.policyName, policy.notes])).toEqual([
      ["bare", ""],
      ["noted", "kept"],
    ]);
  });

  it("still refuses notes that are not a string, storing nothing", async () => {
    const before = (await sdk().getPolicies()).policies.length;
    const input = { policyName: "bad", effect: "EFFECT_DENY", notes: 7 } as unknown as CreatePolicyInput;
    const error = await sdk()
      .createPolicy(input)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // sdk-server throws @turnkey/sdk-types' TurnkeyRequestError, a class of its own with the same fields.
    expect((error as TurnkeyRequestError).name).toBe("TurnkeyRequestError");
    expect((error as TurnkeyRequestError).code).toBe(3);
    expect((await sdk().getPolicies()).policies.length).toBe(before);
  });
});

describe("timestampMs on the activity record", () => {
  it("carries the request's timestampMs, as a string, on the answer and on every later read", async () => {
    const timestampMs = String(Date.now() - 1234);
    const { activity } = await http().createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs,
      organizationId,
      parameters: walletParameters("stamped"),
    });
    expect((activity as unknown as { timestampMs: unknown }).timestampMs).toBe(timestampMs);
    const read = await http().getActivity({ organizationId, activityId: activity.id });
    expect((read.activity as unknown as { timestampMs: unknown }).timestampMs).toBe(timestampMs);
    const listed = await http().getActivities({ organizationId });
    for (const each of listed.activities) {
      const { timestampMs: carried } = each as unknown as { timestampMs: unknown };
      expect(carried).toMatch(/^[0-9]+$/);
      expect(JSON.parse(each.votes[0]!.message).timestampMs).toBe(carried);
    }
  });

  it("carries it on a failed activity too", async () => {
    const timestampMs = String(Date.now() - 99);
    const parameters = { walletId: "00000000-0000-4000-8000-000000000000", targetPublicKey: "04".padEnd(130, "1") };
    await http()
      .exportWallet({ type: "ACTIVITY_TYPE_EXPORT_WALLET", timestampMs, organizationId, parameters })
      .catch(() => undefined);
    const { activities } = await http().getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    const failed = activities.find((each) => each.type === "ACTIVITY_TYPE_EXPORT_WALLET");
    expect((failed as unknown as { timestampMs: unknown }).timestampMs).toBe(timestampMs);
  });
});
