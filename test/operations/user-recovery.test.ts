/**
 * Email recovery through the engine: `init_user_email_recovery` (both versions) mails a recovery credential
 * sealed to the target key and records only the user's id; `recover_user` registers the new passkey. Who may
 * start a recovery (RECOVERY/CREATE) and recover whom (CREDENTIAL/CREATE, a user's own without a policy), and
 * every bad input refused with nothing stored or sent. Spending the credential over HTTP is in
 * test/compat/user-recovery.test.ts.
 */
import { decryptCredentialBundle, generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import { passkeyParams } from "../support/signers.js";
import { SoftwareAuthenticator } from "../support/software-authenticator.js";

const EMAIL = "alice@acme.test";

async function withAlice(options: Parameters<typeof engineWithOrganization>[0] = {}) {
  const fixture = await engineWithOrganization(options);
  const { activity } = await fixture.root.createUsers({
    organizationId: fixture.organizationId,
    parameters: {
      users: [
        { userName: "alice", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] },
      ],
    },
  });
  const aliceId = (activity.result!.createUsersResult as { userIds: string[] }).userIds[0] as string;
  return { ...fixture, aliceId, alice: fixture.engine.as({ userId: aliceId }) };
}

async function recoveryKeys(engine: CustodyEngine, organizationId: string, userId: string, rootUserId: string) {
  const { apiKeys } = await engine.as({ userId: rootUserId }).getApiKeys({ organizationId, userId });
  return apiKeys.filter((key) => key.credential.type === "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256");
}

describe("init_user_email_recovery", () => {
  it("mails a bundle that opens to the recovery key, and records no secret", async () => {
    const { engine, root, organizationId, aliceId, rootUserId } = await withAlice();
    const target = generateP256KeyPair();
    const { activity } = await root.initUserEmailRecovery({
      organizationId,
      parameters: {
        email: EMAIL,
        targetPublicKey: target.publicKey,
        expirationSeconds: "60",
        emailCustomization: { appName: "Demo", magicLinkTemplate: "https://demo.test/recover/%s" },
      },
    });
    expect(activity.type).toBe("ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2");
    expect(activity.result).toEqual({ initUserEmailRecoveryResult: { userId: aliceId } });
    const [mail] = engine.outbox(EMAIL);
    const bundle = mail?.credentialBundle as string;
    expect(mail?.text).toBe(`Recover your Demo account: https://demo.test/recover/${bundle}`);
    expect(decryptCredentialBundle(bundle, target.privateKey)).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(activity)).not.toContain(bundle);
    const [key] = await recoveryKeys(engine, organizationId, aliceId, rootUserId);
    expect(key?.expirationSeconds).toBe("60");
  });

  it("serves the first version, whose customization is optional, and keeps only the newest credential", async () => {
    const { engine, root, organizationId, aliceId, rootUserId } = await withAlice();
    for (const target of [generateP256KeyPair(), generateP256KeyPair()]) {
      const { activity } = await root.initUserEmailRecovery({
        organizationId,
        type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY",
        parameters: { email: EMAIL, targetPublicKey: target.publicKey },
      });
      expect(activity.result).toEqual({ initUserEmailRecoveryResult: { userId: aliceId } });
    }
    expect(engine.outbox(EMAIL)).toHaveLength(2);
    const mail = engine.outbox(EMAIL)[1];
    expect(mail).toMatchObject({
      subject: "Recover your custodian account",
      text: `Your custodian recovery bundle: ${mail?.credentialBundle}`,
    });
    const keys = await recoveryKeys(engine, organizationId, aliceId, rootUserId);
    expect(keys).toHaveLength(1);
    expect(keys[0]?.expirationSeconds).toBe("900");
  });

  it("refuses bad input, storing and sending nothing", async () => {
    const { engine, root, organizationId, aliceId, rootUserId } = await withAlice();
    const targetPublicKey = generateP256KeyPair().publicKey;
    const emailCustomization = { appName: "Demo" };
    const cases = [
      {
        parameters: { email: "nobody@acme.test", targetPublicKey, emailCustomization },
        code: "NOT_FOUND",
        field: "parameters.email",
      },
      {
        parameters: { email: EMAIL, targetPublicKey: "02abcd", emailCustomization },
        code: "INVALID_ARGUMENT",
        field: "parameters.targetPublicKey",
      },
      {
        parameters: { email: "not an email", targetPublicKey, emailCustomization },
        code: "INVALID_ARGUMENT",
        field: "parameters.email",
      },
      {
        parameters: { email: EMAIL, targetPublicKey, emailCustomization, expirationSeconds: "0" },
        code: "INVALID_ARGUMENT",
        field: "parameters.expirationSeconds",
      },
      {
        parameters: { email: EMAIL, targetPublicKey },
        code: "INVALID_ARGUMENT",
        field: "parameters.emailCustomization",
      },
      {
        parameters: { email: EMAIL, targetPublicKey, emailCustomization: { appName: "" } },
        code: "INVALID_ARGUMENT",
        field: "parameters.emailCustomization.appName",
      },
    ];
    for (const { parameters, code, field } of cases) {
      await refusal(
        root.initUserEmailRecovery({ organizationId, parameters } as Parameters<typeof root.initUserEmailRecovery>[0]),
        code,
        field,
      );
    }
    expect(engine.outbox()).toEqual([]);
    expect(await recoveryKeys(engine, organizationId, aliceId, rootUserId)).toEqual([]);
  });

  it("is RECOVERY/CREATE: a user needs a policy to start one", async () => {
    const { engine, root, organizationId, alice, aliceId } = await withAlice();
    const parameters = {
      email: EMAIL,
      targetPublicKey: generateP256KeyPair().publicKey,
      emailCustomization: { appName: "D" },
    };
    await refusal(alice.initUserEmailRecovery({ organizationId, parameters }), "PERMISSION_DENIED");
    expect(engine.outbox()).toEqual([]);
    await root.createPolicy({
      organizationId,
      parameters: {
        policyName: "alice starts recoveries",
        effect: "EFFECT_ALLOW",
        consensus: `approvers.any(user, user.id == '${aliceId}')`,
        condition: "activity.resource == 'RECOVERY' && activity.action == 'CREATE'",
        notes: "",
      },
    });
    const { activity } = await alice.initUserEmailRecovery({ organizationId, parameters });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(engine.outbox(EMAIL)).toHaveLength(1);
  });
});

describe("recover_user", () => {
  it("registers the new passkey for the user recovering themselves, without a policy", async () => {
    const { root, organizationId, alice, aliceId } = await withAlice();
    const { activity } = await alice.recoverUser({
      organizationId,
      parameters: {
        userId: aliceId,
        authenticator: passkeyParams(new SoftwareAuthenticator(), { authenticatorName: "phone" }),
      },
    });
    const { authenticatorId } = activity.result!.recoverUserResult as { authenticatorId: string[] };
    const { authenticators } = await root.getAuthenticators({ organizationId, userId: aliceId });
    expect(
      authenticators.map((authenticator) => [authenticator.authenticatorId, authenticator.authenticatorName]),
    ).toEqual([[authenticatorId[0], "phone"]]);
  });

  it("refuses another user's recovery and bad passkeys, registering nothing", async () => {
    const { root, organizationId, alice, aliceId, rootUserId } = await withAlice();
    const authenticator = passkeyParams(new SoftwareAuthenticator());
    await refusal(
      alice.recoverUser({ organizationId, parameters: { userId: rootUserId, authenticator } }),
      "PERMISSION_DENIED",
    );
    await refusal(
      root.recoverUser({
        organizationId,
        parameters: { userId: "00000000-0000-4000-8000-000000000000", authenticator },
      }),
      "NOT_FOUND",
      "parameters.userId",
    );
    await refusal(
      alice.recoverUser({
        organizationId,
        parameters: {
          userId: aliceId,
          authenticator: passkeyParams(new SoftwareAuthenticator(), { origin: "https://phish.example" }),
        },
      }),
      "INVALID_ARGUMENT",
      "parameters.authenticator.attestation.clientDataJson",
    );
    await refusal(
      alice.recoverUser({
        organizationId,
        parameters: { userId: aliceId, authenticator: { ...authenticator, challenge: "" } },
      }),
      "INVALID_ARGUMENT",
      "parameters.authenticator.challenge",
    );
    for (const userId of [aliceId, rootUserId]) {
      expect((await root.getAuthenticators({ organizationId, userId })).authenticators).toEqual([]);
    }
  });
});
