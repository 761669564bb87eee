/**
 * MFA enforced on a user's activities, end to end through the official clients over a loopback port: an
 * activity matching the user's MFA policy answers `ACTIVITY_STATUS_AUTHENTICATORS_NEEDED`, the submission's
 * own stamp proves one step, `get_mfa_status` shows what is proven and what is left, and `approve_activity`
 * stamped with the credential a step asks for (an API key, a passkey through `@turnkey/webauthn-stamper`)
 * completes it; `@turnkey/core`'s `onMfaRequired` path runs through all of it. An approver's vote counts once
 * that approver's own MFA is proven. Approvals proving nothing new, and other users' votes on a held activity,
 * are refused changing nothing.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { type MfaContext, StamperType } from "@turnkey/core";
import { TurnkeySDKClientBase } from "@turnkey/core/dist/__generated__/sdk-client-base.js";
import { TurnkeyClient } from "@turnkey/http";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ApiKeyPair,
  createTestOrganization,
  ETHEREUM_ACCOUNT,
  generateApiKeyPair,
  type TestOrganization,
  type TestUser,
} from "../../src/testing/index.js";
import { passkeyParams } from "../support/signers.js";
import { installNavigatorCredentials, SoftwareAuthenticator } from "../support/software-authenticator.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

const CREATE_WALLET = "activity.resource == 'WALLET' && activity.action == 'CREATE'";

const opened: TestOrganization[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((org) => org.close()));
});

interface Setup {
  org: TestOrganization;
  agent: TestUser;
  /** The agent's second API key: the one its MFA policy asks for after the first. */
  second: ApiKeyPair;
  secondId: string;
}

/** An agent allowed to create wallets, whose MFA policy asks for its first API key and then its second. */
async function setup(): Promise<Setup> {
  const org = await createTestOrganization({ listen: true });
  opened.push(org);
  const agent = await org.createUser({ name: "agent", policies: [{ effect: "EFFECT_ALLOW", condition: "true" }] });
  const second = generateApiKeyPair();
  await org.root.createApiKeys({
    organizationId: org.organizationId,
    parameters: {
      userId: agent.userId,
      apiKeys: [{ apiKeyName: "second", publicKey: second.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
    },
  });
  const { user } = await org.root.getUser({ organizationId: org.organizationId, userId: agent.userId });
  const idOf = (key: ApiKeyPair) =>
    user.apiKeys.find((k) => k.credential.publicKey === key.apiPublicKey)?.apiKeyId as string;
  const [firstId, secondId] = [idOf(agent.apiKey), idOf(second)];
  expect(firstId).toEqual(expect.any(String));
  expect(secondId).toEqual(expect.any(String));
  await org.root.createMfaPolicy({
    organizationId: org.organizationId,
    parameters: {
      userId: agent.userId,
      mfaPolicyName: "two keys to create a wallet",
      condition: CREATE_WALLET,
      requiredAuthenticationMethods: [
        { any: [{ type: "AUTHENTICATION_TYPE_API_KEY", id: firstId }] },
        { any: [{ type: "AUTHENTICATION_TYPE_API_KEY", id: secondId }, { type: "AUTHENTICATION_TYPE_PASSKEY" }] },
      ],
      order: 0,
    },
  });
  return { org, agent, second, secondId };
}

function httpClient(org: TestOrganization, key: ApiKeyPair): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(key));
}

function envelope(org: TestOrganization) {
  return { timestampMs: String(Date.now()), organizationId: org.organizationId };
}

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as Error & { details: { reason?: string; turnkeyErrorCode?: string }[] | null },
  );
  expect(error?.name).toBe("TurnkeyRequestError");
  return error?.details?.[0]?.turnkeyErrorCode;
}

describe("MFA enforcement", () => {
  it("holds a matching activity for authenticators, shows its status, and completes it on the second key's approval", async () => {
    const { org, agent, second, secondId } = await setup();
    const asAgent = httpClient(org, agent.apiKey);
    const submitted = await asAgent.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      ...envelope(org),
      parameters: { walletName: "guarded", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(submitted.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    expect(conformanceFaults("/public/v1/submit/create_wallet", submitted)).toEqual([]);
    expect(submitted.activity.result).toBeNull();
    expect(submitted.activity).toMatchObject({ canApprove: true, canReject: true });

    const status = await asAgent.getMfaStatus({
      organizationId: org.organizationId,
      activityId: submitted.activity.id,
    });
    expect(conformanceFaults("/public/v1/query/get_mfa_status", status)).toEqual([]);
    expect(status.mfaStatuses).toHaveLength(1);
    expect(status.mfaStatuses[0]).toMatchObject({ userId: agent.userId, satisfied: false });
    expect(status.mfaStatuses[0]?.satisfiedMethods.map((m) => m.type)).toEqual(["AUTHENTICATION_TYPE_API_KEY"]);
    expect(status.mfaStatuses[0]?.requiredMethods).toHaveLength(2);
    const filtered = await asAgent.getMfaStatus({
      organizationId: org.organizationId,
      activityId: submitted.activity.id,
      userId: org.rootUserId,
    });
    expect(filtered.mfaStatuses).toEqual([]);

    // The same key again proves nothing new; another user cannot vote while authenticators are needed.
    const approve = (client: TurnkeyClient) =>
      client.approveActivity({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        ...envelope(org),
        parameters: { fingerprint: submitted.activity.fingerprint },
      });
    expect(await refusalOf(approve(asAgent))).toBe("MFA_METHOD_NOT_ACCEPTED");
    expect(await refusalOf(approve(httpClient(org, org.apiKey)))).toBe("AUTHENTICATORS_NEEDED");
    const still = await asAgent.getActivity({ organizationId: org.organizationId, activityId: submitted.activity.id });
    expect(still.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");

    const approved = await approve(httpClient(org, second));
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(conformanceFaults("/public/v1/submit/approve_activity", approved)).toEqual([]);
    const walletId = (approved.activity.result.createWalletResult as { walletId: string }).walletId;
    expect((await asAgent.getWallet({ organizationId: org.organizationId, walletId })).wallet.walletName).toBe(
      "guarded",
    );
    const done = await asAgent.getMfaStatus({ organizationId: org.organizationId, activityId: submitted.activity.id });
    expect(done.mfaStatuses[0]).toMatchObject({ satisfied: true });
    expect(done.mfaStatuses[0]?.satisfiedMethods).toEqual([
      expect.objectContaining({ type: "AUTHENTICATION_TYPE_API_KEY" }),
      { type: "AUTHENTICATION_TYPE_API_KEY", id: secondId },
    ]);
    // A fresh approval of the completed activity is refused (the same body again is answered as a replay).
    const again = httpClient(org, second).approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      timestampMs: String(Date.now() + 1000),
      organizationId: org.organizationId,
      parameters: { fingerprint: submitted.activity.fingerprint },
    });
    expect(await refusalOf(again)).toBe("ACTIVITY_NOT_PENDING");
  });

  it("leaves activities the condition does not match alone, and a rejection ends a held one", async () => {
    const { org, agent } = await setup();
    const asAgent = httpClient(org, agent.apiKey);
    const tag = await asAgent.createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      ...envelope(org),
      parameters: { userTagName: "unguarded", userIds: [] },
    });
    expect(tag.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(
      (await asAgent.getMfaStatus({ organizationId: org.organizationId, activityId: tag.activity.id })).mfaStatuses,
    ).toEqual([]);

    const held = await asAgent.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      ...envelope(org),
      parameters: { walletName: "never", accounts: [ETHEREUM_ACCOUNT] },
    });
    const rejected = await asAgent.rejectActivity({
      type: "ACTIVITY_TYPE_REJECT_ACTIVITY",
      ...envelope(org),
      parameters: { fingerprint: held.activity.fingerprint },
    });
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect((await asAgent.getWallets({ organizationId: org.organizationId })).wallets).toEqual([]);
  });

  it("counts one key once, however often it stamps, and answers get_mfa_status only for its own activities", async () => {
    const { org, agent, second } = await setup();
    const asRoot = httpClient(org, org.apiKey);
    // Two steps that each take any API key: one key cannot prove both.
    const { mfaPolicyId } = (
      await asRoot.createMfaPolicy({
        type: "ACTIVITY_TYPE_CREATE_MFA_POLICY",
        ...envelope(org),
        parameters: {
          userId: agent.userId,
          mfaPolicyName: "two keys for tags",
          condition: "activity.resource == 'USER'",
          requiredAuthenticationMethods: [
            { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
            { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
          ],
          order: 0,
        },
      })
    ).activity.result.createMfaPolicyResult as { mfaPolicyId: string };
    const asAgent = httpClient(org, agent.apiKey);
    const held = await asAgent.createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      ...envelope(org),
      parameters: { userTagName: "guarded", userIds: [] },
    });
    expect(held.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    const status = await asAgent.getMfaStatus({ organizationId: org.organizationId, activityId: held.activity.id });
    expect(status.mfaStatuses[0]?.mfaPolicyId).toBe(mfaPolicyId);
    const approveWith = (key: ApiKeyPair, offset: number) =>
      httpClient(org, key).approveActivity({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        timestampMs: String(Date.now() + offset),
        organizationId: org.organizationId,
        parameters: { fingerprint: held.activity.fingerprint },
      });
    expect(await refusalOf(approveWith(agent.apiKey, 1))).toBe("MFA_METHOD_NOT_ACCEPTED");
    expect((await approveWith(second, 2)).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

    // An activity of no organization of the caller, and a malformed id, are refused naming the field.
    for (const activityId of ["no-such-activity", "x".repeat(129)]) {
      const error = await asAgent.getMfaStatus({ organizationId: org.organizationId, activityId }).then(
        () => undefined,
        (e: unknown) => e as Error & { details: { field?: string }[] | null },
      );
      expect(error?.details?.find((detail) => detail.field !== undefined)?.field).toBe("activityId");
    }
  });

  it("counts an approver's vote towards consensus only once that approver's own MFA steps are proven", async () => {
    const org = await createTestOrganization({ listen: true });
    opened.push(org);
    const approver = await org.createUser({ name: "approver" });
    const approverSecond = generateApiKeyPair();
    await org.root.createApiKeys({
      organizationId: org.organizationId,
      parameters: {
        userId: approver.userId,
        apiKeys: [{ apiKeyName: "second", publicKey: approverSecond.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    });
    await org.root.createMfaPolicy({
      organizationId: org.organizationId,
      parameters: {
        userId: approver.userId,
        mfaPolicyName: "two keys for everything",
        condition: "true",
        requiredAuthenticationMethods: [
          { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
          { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
        ],
        order: 0,
      },
    });
    const agent = await org.createUser({
      name: "agent",
      policies: [
        {
          effect: "EFFECT_ALLOW",
          consensus: (id) =>
            `approvers.any(user, user.id == '${id}') && approvers.any(user, user.id == '${approver.userId}')`,
        },
      ],
    });
    const asAgent = httpClient(org, agent.apiKey);
    const submitted = await asAgent.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      ...envelope(org),
      parameters: { walletName: "by consensus", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(submitted.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const approveWith = (key: ApiKeyPair, offset: number) =>
      httpClient(org, key).approveActivity({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        timestampMs: String(Date.now() + offset),
        organizationId: org.organizationId,
        parameters: { fingerprint: submitted.activity.fingerprint },
      });

    const first = await approveWith(approver.apiKey, 0);
    expect(first.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(first.activity.votes.map((vote) => vote.userId)).toEqual([agent.userId]);
    const status = await asAgent.getMfaStatus({
      organizationId: org.organizationId,
      activityId: submitted.activity.id,
      userId: approver.userId,
    });
    expect(status.mfaStatuses).toHaveLength(1);
    expect(status.mfaStatuses[0]).toMatchObject({ userId: approver.userId, satisfied: false });
    expect(await refusalOf(approveWith(approver.apiKey, 1))).toBe("MFA_METHOD_NOT_ACCEPTED");

    const second = await approveWith(approverSecond, 2);
    expect(second.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(second.activity.votes.map((vote) => vote.userId)).toEqual([agent.userId, approver.userId]);
    const done = await asAgent.getMfaStatus({ organizationId: org.organizationId, activityId: submitted.activity.id });
    expect(done.mfaStatuses.map((s) => [s.userId, s.satisfied])).toEqual([[approver.userId, true]]);
  });

  it("takes a passkey step proven by an approval the official WebAuthn stamper signs", async () => {
    const [rpId, origin] = ["wallet.example", "https://wallet.example"];
    const org = await createTestOrganization({ listen: true, engine: { webauthn: { rpId, origins: [origin] } } });
    opened.push(org);
    const agent = await org.createUser({ name: "agent", policies: [{ effect: "EFFECT_ALLOW" }] });
    const authenticator = new SoftwareAuthenticator();
    await org.root.createAuthenticators({
      organizationId: org.organizationId,
      parameters: { userId: agent.userId, authenticators: [passkeyParams(authenticator, { rpId, origin })] },
    });
    const { user } = await org.root.getUser({ organizationId: org.organizationId, userId: agent.userId });
    const passkeyId = user.authenticators[0]?.authenticatorId as string;
    await org.root.createMfaPolicy({
      organizationId: org.organizationId,
      parameters: {
        userId: agent.userId,
        mfaPolicyName: "key and passkey",
        condition: CREATE_WALLET,
        requiredAuthenticationMethods: [
          { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
          { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY", id: passkeyId }] },
        ],
        order: 0,
      },
    });
    const submitted = await httpClient(org, agent.apiKey).createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      ...envelope(org),
      parameters: { walletName: "passkey guarded", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(submitted.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    const uninstall = installNavigatorCredentials(authenticator, origin);
    try {
      const passkey = new TurnkeyClient({ baseUrl: org.baseUrl }, new WebauthnStamper({ rpId }));
      const approved = await passkey.approveActivity({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        ...envelope(org),
        parameters: { fingerprint: submitted.activity.fingerprint },
      });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    } finally {
      uninstall();
    }
    const status = await httpClient(org, agent.apiKey).getMfaStatus({
      organizationId: org.organizationId,
      activityId: submitted.activity.id,
    });
    expect(status.mfaStatuses[0]?.satisfiedMethods.at(-1)).toEqual({
      type: "AUTHENTICATION_TYPE_PASSKEY",
      id: passkeyId,
    });
  });

  it("runs @turnkey/core's onMfaRequired path: status polled, approval by the second key, result returned", async () => {
    const { org, agent, second } = await setup();
    const seen: MfaContext[] = [];
    const core = new TurnkeySDKClientBase({
      apiBaseUrl: org.baseUrl,
      organizationId: org.organizationId,
      apiKeyStamper: new ApiKeyStamper(agent.apiKey),
      defaultStamperType: StamperType.ApiKey,
      activityPoller: { intervalMs: 5, numRetries: 5 },
      onMfaRequired: async (context) => {
        seen.push(context);
        await httpClient(org, second).approveActivity({
          type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
          ...envelope(org),
          parameters: { fingerprint: context.fingerprint },
        });
      },
    });
    const created = await core.createWallet({ walletName: "via core", accounts: [ETHEREUM_ACCOUNT] });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      activityType: "ACTIVITY_TYPE_CREATE_WALLET",
      activityStatus: "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED",
      organizationId: org.organizationId,
    });
    expect(seen[0]?.mfaStatuses[0]).toMatchObject({ userId: agent.userId, satisfied: false });
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(created.walletId).toEqual(expect.any(String));
    expect(created.addresses).toHaveLength(1);
  });
});
