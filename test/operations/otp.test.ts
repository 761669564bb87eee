/**
 * One-time codes through the engine: `init_otp` puts the code in the outbox (and nowhere else),
 * `verify_otp` trades it for a verification token that `@turnkey/crypto` verifies against the engine's
 * token key, and the token signs a user up and logs them in once each. Wrong, expired, reused and forged
 * inputs are refused, with the attempt count kept across the failed activities.
 */
import { getClientSignatureMessageForLogin, getClientSignatureMessageForSignup, signWithApiKey } from "@turnkey/core";
import {
  decryptCredentialBundle,
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  verifyOtpVerificationToken,
} from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { MAX_OTP_ATTEMPTS } from "../../src/domain/otp-codes.js";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

const EMAIL = "alice@example.test";

type Root = Awaited<ReturnType<typeof engineWithOrganization>>["root"];

async function sendCode(engine: CustodyEngine, root: Root, organizationId: string, contact = EMAIL) {
  const { activity } = await root.initOtp({
    organizationId,
    parameters: { otpType: "OTP_TYPE_EMAIL", contact, appName: "Demo" },
  });
  const result = activity.result!.initOtpResultV2 as { otpId: string; otpEncryptionTargetBundle: string };
  const message = engine.outbox(contact).at(-1);
  return { ...result, code: message?.otpCode as string, activity };
}

async function verifyV2(
  engine: CustodyEngine,
  root: Root,
  organizationId: string,
  otpId: string,
  bundle: string,
  code: string,
  publicKey: string,
) {
  const encryptedOtpBundle = await encryptOtpCodeToBundle(code, bundle, publicKey, await engine.signerPublicKey());
  return root.verifyOtp({ organizationId, parameters: { otpId, encryptedOtpBundle } });
}

/** A verified email: the token and the key it binds. */
async function verifiedToken(engine: CustodyEngine, root: Root, organizationId: string, contact = EMAIL) {
  const key = generateP256KeyPair();
  const sent = await sendCode(engine, root, organizationId, contact);
  const { activity } = await verifyV2(
    engine,
    root,
    organizationId,
    sent.otpId,
    sent.otpEncryptionTargetBundle,
    sent.code,
    key.publicKey,
  );
  return {
    key,
    verificationToken: (activity.result!.verifyOtpResult as { verificationToken: string }).verificationToken,
  };
}

async function signUp(
  root: Root,
  organizationId: string,
  verificationToken: string,
  key: { publicKey: string; privateKey: string },
  email = EMAIL,
) {
  const { message } = getClientSignatureMessageForSignup({
    verificationToken,
    email,
    apiKeys: [],
    authenticators: [],
    oauthProviders: [],
  });
  const signature = await signWithApiKey({ content: message, publicKey: key.publicKey, privateKey: key.privateKey });
  return root.createSubOrganization({
    organizationId,
    parameters: {
      subOrganizationName: "alice",
      rootUsers: [{ userName: "alice", userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      verificationToken,
      clientSignature: { publicKey: key.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256", message, signature },
    },
  });
}

describe("init_otp and verify_otp", () => {
  it("sends the code to the outbox only, and trades it for a token bound to the client key", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const sent = await sendCode(engine, root, organizationId);
    expect(sent.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{9}$/);
    expect(engine.outbox(EMAIL).at(-1)).toMatchObject({ channel: "email", to: EMAIL, organizationId });
    expect(JSON.stringify(sent.activity)).not.toContain(sent.code);

    const key = generateP256KeyPair();
    const { activity } = await verifyV2(
      engine,
      root,
      organizationId,
      sent.otpId,
      sent.otpEncryptionTargetBundle,
      sent.code,
      key.publicKey,
    );
    const { verificationToken } = activity.result!.verifyOtpResult as { verificationToken: string };
    const claims = await verifyOtpVerificationToken(verificationToken, await engine.tokenSignerPublicKey());
    expect(claims).toMatchObject({
      contact: EMAIL,
      verification_type: "OTP_TYPE_EMAIL",
      organization_id: organizationId,
      public_key: key.publicKey,
    });
    const { activity: stored } = await root.getActivity({ organizationId, activityId: activity.id });
    expect(stored.result).toEqual({ verifyOtpResult: { verificationToken: "<redacted>" } });
  });

  it("keeps a V1 code out of the stored intent and the vote", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const sent = await sendCode(engine, root, organizationId);
    const { activity } = await root.verifyOtp({
      type: "ACTIVITY_TYPE_VERIFY_OTP",
      organizationId,
      parameters: { otpId: sent.otpId, otpCode: sent.code },
    } as never);
    const { activity: stored } = await root.getActivity({ organizationId, activityId: activity.id });
    expect(JSON.stringify(stored)).not.toContain(sent.code);
    expect(stored.intent).toEqual({ verifyOtpIntent: { otpId: sent.otpId, otpCode: "<redacted>" } });
  });

  it("counts wrong codes across failed activities and spends the OTP at the limit", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const sent = await sendCode(engine, root, organizationId);
    const key = generateP256KeyPair();
    const wrong = sent.code === "000000000" ? "111111111" : "000000000";
    for (let attempt = 1; attempt <= MAX_OTP_ATTEMPTS; attempt++) {
      const error = await expectCustodyError(
        verifyV2(engine, root, organizationId, sent.otpId, sent.otpEncryptionTargetBundle, wrong, key.publicKey),
        "INVALID_ARGUMENT",
        "parameters.encryptedOtpBundle",
      );
      expect(error.message).toMatch(/^Invalid OTP code/);
      expect(error.details.reason).toBe("INVALID_OTP_CODE");
      const { activity } = await root.getActivity({ organizationId, activityId: error.details.activityId as string });
      expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    }
    const error = await expectCustodyError(
      verifyV2(engine, root, organizationId, sent.otpId, sent.otpEncryptionTargetBundle, sent.code, key.publicKey),
      "RESOURCE_EXHAUSTED",
      "parameters.otpId",
    );
    expect(error.details.reason).toBe("OTP_ATTEMPTS_EXHAUSTED");
    expect(JSON.stringify(error.toRpcStatus())).not.toContain(sent.code);
  });

  it("refuses an expired code and a code used twice", async () => {
    let now = Date.now();
    const { engine, root, organizationId } = await engineWithOrganization({ clock: () => now });
    const key = generateP256KeyPair();
    const late = await sendCode(engine, root, organizationId);
    now += 301_000;
    const expired = await expectCustodyError(
      verifyV2(engine, root, organizationId, late.otpId, late.otpEncryptionTargetBundle, late.code, key.publicKey),
      "FAILED_PRECONDITION",
    );
    expect(expired.details.reason).toBe("OTP_EXPIRED");

    const sent = await sendCode(engine, root, organizationId);
    await verifyV2(engine, root, organizationId, sent.otpId, sent.otpEncryptionTargetBundle, sent.code, key.publicKey);
    const reused = await expectCustodyError(
      verifyV2(engine, root, organizationId, sent.otpId, sent.otpEncryptionTargetBundle, sent.code, key.publicKey),
      "FAILED_PRECONDITION",
    );
    expect(reused.details.reason).toBe("OTP_ALREADY_USED");
  });

  it("refuses a contact that is not an email address", async () => {
    const { root, organizationId } = await engineWithOrganization();
    await expectCustodyError(
      root.initOtp({ organizationId, parameters: { otpType: "OTP_TYPE_EMAIL", contact: "nobody", appName: "Demo" } }),
      "INVALID_ARGUMENT",
      "parameters.contact",
    );
  });
});

describe("verification tokens", () => {
  it("sign a user up once, mark the email verified, and log them in once", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const { key, verificationToken } = await verifiedToken(engine, root, organizationId);
    const { activity } = await signUp(root, organizationId, verificationToken, key);
    const { subOrganizationId } = activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string };
    expect(JSON.stringify(activity)).not.toContain(verificationToken);
    expect(await root.getVerifiedSubOrgIds({ organizationId, filterType: "EMAIL", filterValue: EMAIL })).toEqual({
      organizationIds: [subOrganizationId],
    });

    const reused = await expectCustodyError(
      signUp(root, organizationId, verificationToken, key),
      "FAILED_PRECONDITION",
    );
    expect(reused.details.reason).toBe("VERIFICATION_TOKEN_USED");

    const sessionKey = generateP256KeyPair();
    const login = async () => {
      const { message } = getClientSignatureMessageForLogin({
        verificationToken,
        sessionPublicKey: sessionKey.publicKey,
      });
      const signature = await signWithApiKey({
        content: message,
        publicKey: key.publicKey,
        privateKey: key.privateKey,
      });
      return root.otpLogin({
        organizationId: subOrganizationId,
        parameters: {
          verificationToken,
          publicKey: sessionKey.publicKey,
          clientSignature: { publicKey: key.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256", message, signature },
        },
      });
    };
    const { activity: loggedIn } = await login();
    expect((loggedIn.result!.otpLoginResult as { session: string }).session).toMatch(/^eyJ/);
    const again = await expectCustodyError(login(), "FAILED_PRECONDITION");
    expect(again.details.reason).toBe("VERIFICATION_TOKEN_USED");
  });

  it("refuse a token for another contact, a forged token, and an expired one", async () => {
    let now = Date.now();
    const { engine, root, organizationId } = await engineWithOrganization({ clock: () => now });
    const { key, verificationToken } = await verifiedToken(engine, root, organizationId);
    const other = await expectCustodyError(
      signUp(root, organizationId, verificationToken, key, "mallory@example.test"),
      "PERMISSION_DENIED",
      "parameters.verificationToken",
    );
    expect(other.details.reason).toBe("VERIFICATION_TOKEN_CONTACT_MISMATCH");

    // Another engine's token: well formed, signed by a key this engine does not hold.
    const stranger = await engineWithOrganization();
    const foreign = await verifiedToken(stranger.engine, stranger.root, stranger.organizationId);
    const forged = await expectCustodyError(
      signUp(root, organizationId, foreign.verificationToken, foreign.key),
      "UNAUTHENTICATED",
      "parameters.verificationToken",
    );
    expect(forged.details.reason).toBe("VERIFICATION_TOKEN_INVALID");
    const [header, , signature] = verificationToken.split(".");
    const claims = {
      ...JSON.parse(Buffer.from(verificationToken.split(".")[1] as string, "base64url").toString()),
      contact: "x@y.test",
    };
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    await expectCustodyError(signUp(root, organizationId, tampered, key, "x@y.test"), "UNAUTHENTICATED");

    now += 3601_000;
    const expired = await expectCustodyError(signUp(root, organizationId, verificationToken, key), "UNAUTHENTICATED");
    expect(expired.details.reason).toBe("VERIFICATION_TOKEN_EXPIRED");
  });
});

describe("init_otp_auth, otp_auth and email_auth", () => {
  it("deliver a session key to a user who holds the contact", async () => {
    const { engine, root, organizationId, rootUserId } = await engineWithOrganization();
    const contact = "root@acme.test";
    const { activity: init } = await root.initOtpAuth({
      organizationId,
      parameters: { otpType: "OTP_TYPE_EMAIL", contact, appName: "Demo" },
    });
    const { otpId } = init.result!.initOtpAuthResultV2 as { otpId: string };
    const code = engine.outbox(contact).at(-1)?.otpCode as string;
    const target = generateP256KeyPair();
    const { activity } = await root.otpAuth({
      organizationId,
      parameters: { otpId, otpCode: code, targetPublicKey: target.publicKey },
    });
    const result = activity.result!.otpAuthResult as { userId: string; credentialBundle: string };
    expect(result.userId).toBe(rootUserId);
    expect(decryptCredentialBundle(result.credentialBundle, target.privateKey)).toMatch(/^[0-9a-f]{64}$/);

    const emailTarget = generateP256KeyPair();
    await root.emailAuth({
      organizationId,
      parameters: { email: contact, targetPublicKey: emailTarget.publicKey, emailCustomization: { appName: "Demo" } },
    });
    const mail = engine.outbox(contact).at(-1);
    const bundle = mail?.credentialBundle as string;
    expect(decryptCredentialBundle(bundle, emailTarget.privateKey)).toMatch(/^[0-9a-f]{64}$/);
    expect(mail).toMatchObject({ subject: "Log in to Demo", text: `Your Demo login bundle: ${bundle}` });

    // With a magic link template the bundle goes into the link.
    await root.emailAuth({
      organizationId,
      parameters: {
        email: contact,
        targetPublicKey: emailTarget.publicKey,
        emailCustomization: { appName: "Demo", magicLinkTemplate: "https://demo.test/login/%s" },
      },
    });
    const linked = engine.outbox(contact).at(-1);
    expect(linked?.text).toBe(`Log in to Demo: https://demo.test/login/${linked?.credentialBundle}`);
  });

  it("refuse a contact no user holds, sending nothing", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    await expectCustodyError(
      root.initOtpAuth({ organizationId, parameters: { otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "Demo" } }),
      "NOT_FOUND",
      "parameters.contact",
    );
    expect(engine.outbox(EMAIL)).toEqual([]);
  });
});
