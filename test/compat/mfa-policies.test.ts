/**
 * MFA policies through the official clients over a loopback port: `@turnkey/sdk-server` creates, updates,
 * reads, lists and deletes them (the user's `mfaPolicies` shows them in evaluation order), and
 * `@turnkey/http` sees every bad input refused with INVALID_ARGUMENT naming the field, storing nothing.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterEach, describe, expect, it } from "vitest";
import { createTestOrganization, type TestOrganization } from "../../src/testing/index.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

const opened: TestOrganization[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((org) => org.close()));
});

async function organization(): Promise<TestOrganization> {
  const org = await createTestOrganization({ listen: true });
  opened.push(org);
  return org;
}

const PASSKEY_THEN_KEY = [
  { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" as const }] },
  { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" as const }, { type: "AUTHENTICATION_TYPE_EMAIL_OTP" as const }] },
];

/** Checks an answer against the description's response schema for `path`. */
function conforms(path: string, answer: unknown): void {
  const stripped = JSON.parse(JSON.stringify(answer));
  expect(conformanceFaults(`/public/v1/query/${path}`, stripped)).toEqual([]);
}

describe("MFA policies through @turnkey/sdk-server", () => {
  it("creates, reads, lists in order, updates and deletes a user's MFA policies", async () => {
    const org = await organization();
    const agent = await org.createUser({ name: "agent" });
    const sdk = new Turnkey(org.turnkeyConfig).apiClient();

    const signing = await sdk.createMfaPolicy({
      userId: agent.userId,
      mfaPolicyName: "passkey to sign",
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: PASSKEY_THEN_KEY,
      order: 5,
      notes: "signing needs a passkey",
    });
    expect(signing.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(signing.activity.type).toBe("ACTIVITY_TYPE_CREATE_MFA_POLICY");
    const everything = await sdk.createMfaPolicy({
      userId: agent.userId,
      mfaPolicyName: "any session",
      condition: "true",
      requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_SESSION", id: "profile-1" }] }],
      order: 1,
    });

    const one = await sdk.getMfaPolicy({ userId: agent.userId, mfaPolicyId: signing.mfaPolicyId });
    conforms("get_mfa_policy", one);
    expect(one.mfaPolicy).toMatchObject({
      mfaPolicyId: signing.mfaPolicyId,
      mfaPolicyName: "passkey to sign",
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: PASSKEY_THEN_KEY,
      order: 5,
      notes: "signing needs a passkey",
    });

    const listed = await sdk.getMfaPolicies({ userId: agent.userId });
    conforms("get_mfa_policies", listed);
    expect(listed.mfaPolicies.map((p) => p.mfaPolicyId)).toEqual([everything.mfaPolicyId, signing.mfaPolicyId]);
    const { user } = await sdk.getUser({ userId: agent.userId });
    expect(user.mfaPolicies.map((p) => p.mfaPolicyId)).toEqual([everything.mfaPolicyId, signing.mfaPolicyId]);

    const updated = await sdk.updateMfaPolicy({
      userId: agent.userId,
      mfaPolicyId: everything.mfaPolicyId,
      order: 9,
      requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" }] }],
    });
    expect(updated.mfaPolicyId).toBe(everything.mfaPolicyId);
    const after = await sdk.getMfaPolicies({ userId: agent.userId });
    expect(after.mfaPolicies.map((p) => [p.mfaPolicyName, p.order, p.condition])).toEqual([
      ["passkey to sign", 5, "activity.action == 'SIGN'"],
      ["any session", 9, "true"],
    ]);
    expect(after.mfaPolicies[1]?.requiredAuthenticationMethods).toEqual([
      { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" }] },
    ]);

    const deleted = await sdk.deleteMfaPolicy({ userId: agent.userId, mfaPolicyId: signing.mfaPolicyId });
    expect(deleted.mfaPolicyId).toBe(signing.mfaPolicyId);
    expect((await sdk.getMfaPolicies({ userId: agent.userId })).mfaPolicies.map((p) => p.mfaPolicyId)).toEqual([
      everything.mfaPolicyId,
    ]);
  });

  it("keeps one user's MFA policy out of another user's reach, and drops them with their user", async () => {
    const org = await organization();
    const alice = await org.createUser({ name: "alice" });
    const bob = await org.createUser({ name: "bob" });
    const sdk = new Turnkey(org.turnkeyConfig).apiClient();
    const { mfaPolicyId } = await sdk.createMfaPolicy({
      userId: alice.userId,
      mfaPolicyName: "alice",
      condition: "true",
      requiredAuthenticationMethods: PASSKEY_THEN_KEY,
      order: 0,
    });
    await expect(sdk.getMfaPolicy({ userId: bob.userId, mfaPolicyId })).rejects.toThrow(/no MFA policy/);
    await expect(sdk.deleteMfaPolicy({ userId: bob.userId, mfaPolicyId })).rejects.toThrow(/no MFA policy/);
    expect((await sdk.getMfaPolicies({ userId: bob.userId })).mfaPolicies).toEqual([]);
    await sdk.deleteUsers({ userIds: [alice.userId] });
    const record = await org.store.transaction(async (tx) => tx.get("mfaPolicies", mfaPolicyId));
    expect(record).toBeUndefined();
  });
});

describe("refused MFA policies through @turnkey/http", () => {
  const good = {
    mfaPolicyName: "guard",
    condition: "activity.action == 'SIGN'",
    requiredAuthenticationMethods: PASSKEY_THEN_KEY,
    order: "0",
  };
  const manySteps = Array.from({ length: 11 }, () => ({ any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" }] }));
  const manyMethods = [{ any: Array.from({ length: 11 }, () => ({ type: "AUTHENTICATION_TYPE_PASSKEY" })) }];
  const cases: [string, Record<string, unknown>, string][] = [
    ["a condition that does not parse", { condition: "activity.action ==" }, "parameters.condition"],
    ["a condition reading an unknown field", { condition: "eth.tx.recipient == 'x'" }, "parameters.condition"],
    ["a condition naming approvers", { condition: "approvers.count() > 1" }, "parameters.condition"],
    ["a blank condition", { condition: "  " }, "parameters.condition"],
    ["an over-long condition", { condition: `true && ${"true || ".repeat(20_000)}true` }, "parameters.condition"],
    [
      "an unknown authentication method",
      { requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_CARRIER_PIGEON" }] }] },
      "parameters.requiredAuthenticationMethods[0].any[0].type",
    ],
    ["no steps", { requiredAuthenticationMethods: [] }, "parameters.requiredAuthenticationMethods"],
    [
      "an empty step",
      { requiredAuthenticationMethods: [{ any: [] }] },
      "parameters.requiredAuthenticationMethods[0].any",
    ],
    ["too many steps", { requiredAuthenticationMethods: manySteps }, "parameters.requiredAuthenticationMethods"],
    [
      "too many methods in a step",
      { requiredAuthenticationMethods: manyMethods },
      "parameters.requiredAuthenticationMethods[0].any",
    ],
    ["a negative order", { order: "-1" }, "parameters.order"],
    ["an unknown user", { userId: "no-such-user" }, "parameters.userId"],
  ];

  it.each(cases)("refuses %s, naming the field and storing nothing", async (_what, change, field) => {
    const org = await organization();
    const agent = await org.createUser({ name: "agent" });
    const client = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(org.apiKey));
    const error = await client
      .createMfaPolicy({
        type: "ACTIVITY_TYPE_CREATE_MFA_POLICY",
        timestampMs: String(Date.now()),
        organizationId: org.organizationId,
        parameters: { userId: agent.userId, ...good, ...change } as never,
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { details: { code?: string; field?: string }[] | null },
      );
    expect(error?.name).toBe("TurnkeyRequestError");
    const custodian = error?.details?.find((detail) => detail.field !== undefined);
    expect(custodian).toMatchObject({ code: change.userId ? "NOT_FOUND" : "INVALID_ARGUMENT", field });
    const { mfaPolicies } = await client.getMfaPolicies({ organizationId: org.organizationId, userId: agent.userId });
    expect(mfaPolicies).toEqual([]);
  });

  it("refuses a bad update, keeping the stored policy as it was", async () => {
    const org = await organization();
    const agent = await org.createUser({ name: "agent" });
    const client = new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(org.apiKey));
    const envelope = () => ({ timestampMs: String(Date.now()), organizationId: org.organizationId });
    const created = await client.createMfaPolicy({
      type: "ACTIVITY_TYPE_CREATE_MFA_POLICY",
      ...envelope(),
      parameters: { userId: agent.userId, ...good } as never,
    });
    expect(conformanceFaults("/public/v1/submit/create_mfa_policy", created)).toEqual([]);
    const mfaPolicyId = (created.activity.result.createMfaPolicyResult as { mfaPolicyId: string }).mfaPolicyId;
    const before = await client.getMfaPolicy({ organizationId: org.organizationId, userId: agent.userId, mfaPolicyId });
    for (const [change, field] of [
      [{ condition: "activity.action = 'SIGN'" }, "parameters.condition"],
      [
        { requiredAuthenticationMethods: [{ any: [{ type: "PASSKEY" }] }] },
        "parameters.requiredAuthenticationMethods[0].any[0].type",
      ],
      [{ mfaPolicyId: "no-such-policy" }, "parameters.mfaPolicyId"],
    ] as const) {
      const error = await client
        .updateMfaPolicy({
          type: "ACTIVITY_TYPE_UPDATE_MFA_POLICY",
          ...envelope(),
          parameters: { userId: agent.userId, mfaPolicyId, ...change } as never,
        })
        .then(
          () => undefined,
          (e: unknown) => e as Error & { details: { field?: string }[] | null },
        );
      expect(error?.details?.find((detail) => detail.field !== undefined)?.field).toBe(field);
    }
    expect(
      await client.getMfaPolicy({ organizationId: org.organizationId, userId: agent.userId, mfaPolicyId }),
    ).toEqual(before);
  });
});
