/**
 * Session profiles through the official clients over a loopback port: `@turnkey/sdk-server` creates them and
 * reads them back (a sub-organization sees its parent's and its own); `@turnkey/http`'s `stampLogin` issues
 * a session under one, whose JWT names the profile, whose lifetime the profile caps, whose key lists the
 * profile, and whose every activity the profile's scope bounds. MFA policies tell the sessions apart: a
 * profiled session proves `AUTHENTICATION_TYPE_SESSION` with the profile's id, a default one with the zero
 * id, so an elevated session can be required for an activity and made to cost a second factor to obtain.
 * Bad profiles and log-ins naming an unknown profile are refused naming the field, storing nothing.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { getClientSignatureMessageForLogin, getClientSignatureMessageForSignup, signWithApiKey } from "@turnkey/core";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterEach, describe, expect, it } from "vitest";
import { oidcNonceFor } from "../../src/operations/oauth.js";
import {
  type ApiKeyPair,
  createTestOrganization,
  ETHEREUM_ACCOUNT,
  generateApiKeyPair,
  type TestOrganization,
  type TestUser,
} from "../../src/testing/index.js";
import { engineWithOrganization } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";
import { type RunningServer, serve } from "../support/server.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

const DEFAULT_SESSION = "00000000-0000-0000-0000-000000000000";
const CREATE_WALLET = "activity.resource == 'WALLET' && activity.action == 'CREATE'";

const opened: TestOrganization[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((org) => org.close()));
  for (const server of servers.splice(0)) await server.close();
});

async function organization(): Promise<TestOrganization> {
  const org = await createTestOrganization({ listen: true });
  opened.push(org);
  return org;
}

function httpClient(org: TestOrganization, key: ApiKeyPair): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: org.baseUrl }, new ApiKeyStamper(key));
}

function envelope(organizationId: string) {
  return { timestampMs: String(Date.now()), organizationId };
}

/** The claims of a session JWT (its middle part). */
function claimsOf(session: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(session.split(".")[1] as string, "base64url").toString("utf8"));
}

interface Refusal {
  name?: string;
  details: { code?: string; field?: string; reason?: string; turnkeyErrorCode?: string }[] | null;
}

async function refusalOf(promise: Promise<unknown>): Promise<Refusal | undefined> {
  return promise.then(
    () => undefined,
    (e: unknown) => e as Refusal,
  );
}

function fieldDetail(refusal: Refusal | undefined) {
  return refusal?.details?.find((detail) => detail.field !== undefined);
}

/** A fresh session key for `user`, logged in with the `stamper` key, optionally under a profile. */
async function stampLogin(
  org: TestOrganization,
  stamper: ApiKeyPair,
  organizationId: string,
  sessionProfileId?: string,
  expirationSeconds?: string,
) {
  const sessionKey = generateApiKeyPair();
  const answer = await httpClient(org, stamper).stampLogin({
    type: "ACTIVITY_TYPE_STAMP_LOGIN",
    ...envelope(organizationId),
    parameters: {
      publicKey: sessionKey.apiPublicKey,
      ...(sessionProfileId === undefined ? {} : { sessionProfileId }),
      ...(expirationSeconds === undefined ? {} : { expirationSeconds }),
    },
  });
  return { answer, sessionKey };
}

async function createProfile(org: TestOrganization, parameters: Record<string, unknown>): Promise<string> {
  const created = await httpClient(org, org.apiKey).createSessionProfile({
    type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
    ...envelope(org.organizationId),
    parameters: parameters as never,
  });
  expect(conformanceFaults("/public/v1/submit/create_session_profile", created)).toEqual([]);
  return (created.activity.result.createSessionProfileResult as { sessionProfileId: string }).sessionProfileId;
}

async function agentOf(org: TestOrganization): Promise<TestUser> {
  return org.createUser({ name: "agent", policies: [{ effect: "EFFECT_ALLOW", condition: "true" }] });
}

describe("session profiles through @turnkey/sdk-server", () => {
  it("creates profiles and reads them back; a sub-organization sees its parent's and its own", async () => {
    const org = await organization();
    const sdk = new Turnkey(org.turnkeyConfig).apiClient();
    const signing = await sdk.createSessionProfile({
      sessionProfileName: "signing",
      scope: "activity.action == 'SIGN'",
      expirationSeconds: "900",
      notes: "fifteen minutes of signing",
    });
    expect(signing.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(signing.activity.type).toBe("ACTIVITY_TYPE_CREATE_SESSION_PROFILE");
    const open = await sdk.createSessionProfile({ sessionProfileName: "open", scope: "true" });

    const one = await sdk.getSessionProfile({ sessionProfileId: signing.sessionProfileId });
    expect(conformanceFaults("/public/v1/query/get_session_profile", JSON.parse(JSON.stringify(one)))).toEqual([]);
    expect(one.sessionProfile).toMatchObject({
      sessionProfileId: signing.sessionProfileId,
      sessionProfileName: "signing",
      scope: "activity.action == 'SIGN'",
      expirationSeconds: "900",
      notes: "fifteen minutes of signing",
    });
    const all = await sdk.getSessionProfiles({});
    expect(conformanceFaults("/public/v1/query/get_session_profiles", JSON.parse(JSON.stringify(all)))).toEqual([]);
    expect(all.sessionProfiles.map((p) => p.sessionProfileId)).toEqual([
      signing.sessionProfileId,
      open.sessionProfileId,
    ]);
    expect(all.sessionProfiles[1]?.expirationSeconds).toBeUndefined();

    const subRoot = generateApiKeyPair();
    const { subOrganizationId } = await sdk.createSubOrganization({
      subOrganizationName: "end user",
      rootUsers: [
        {
          userName: "end user",
          apiKeys: [{ apiKeyName: "root", publicKey: subRoot.apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
    });
    const asSub = httpClient(org, subRoot);
    const own = await asSub.createSessionProfile({
      type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
      ...envelope(subOrganizationId),
      parameters: { sessionProfileName: "sub's own", scope: "true" },
    });
    const ownId = (own.activity.result.createSessionProfileResult as { sessionProfileId: string }).sessionProfileId;
    const seen = await asSub.getSessionProfiles({ organizationId: subOrganizationId });
    expect(seen.sessionProfiles.map((p) => p.sessionProfileId)).toEqual([
      ownId,
      signing.sessionProfileId,
      open.sessionProfileId,
    ]);
    // The parent does not see its sub-organization's profile, and the sub-organization's session may use
    // the parent's.
    await expect(sdk.getSessionProfile({ sessionProfileId: ownId })).rejects.toThrow(/no session profile/);
    const { answer } = await stampLogin(org, subRoot, subOrganizationId, open.sessionProfileId);
    const session = (answer.activity.result.stampLoginResult as { session: string }).session;
    expect(claimsOf(session)).toMatchObject({ session_profile_id: open.sessionProfileId, session_type: "open" });
  });
});

describe("session profiles and policies", () => {
  it("lets a non-root user create one only where a policy allows SESSION_PROFILE/CREATE", async () => {
    const org = await organization();
    const plain = await org.createUser({ name: "plain" });
    const allowed = await org.createUser({
      name: "allowed",
      policies: [{ effect: "EFFECT_ALLOW", condition: "activity.resource == 'SESSION_PROFILE'" }],
    });
    const create = (key: ApiKeyPair) =>
      httpClient(org, key).createSessionProfile({
        type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
        ...envelope(org.organizationId),
        parameters: { sessionProfileName: "by a user", scope: "true" },
      });
    const denied = await refusalOf(create(plain.apiKey));
    expect(denied?.name).toBe("TurnkeyRequestError");
    const root = httpClient(org, org.apiKey);
    expect((await root.getSessionProfiles({ organizationId: org.organizationId })).sessionProfiles).toEqual([]);
    const done = await create(allowed.apiKey);
    expect(done.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await root.getSessionProfiles({ organizationId: org.organizationId })).sessionProfiles).toHaveLength(1);
  });
});

describe("sessions issued under a profile", () => {
  it("name the profile in the JWT and on the key, last no longer than the profile allows, and stay in scope", async () => {
    const org = await organization();
    const agent = await agentOf(org);
    const profileId = await createProfile(org, {
      sessionProfileName: "no wallets",
      scope: "activity.resource != 'WALLET'",
      expirationSeconds: "600",
    });

    const before = Math.floor(Date.now() / 1000);
    const { answer, sessionKey } = await stampLogin(org, agent.apiKey, org.organizationId, profileId, "3600");
    expect(conformanceFaults("/public/v1/submit/stamp_login", answer)).toEqual([]);
    const claims = claimsOf((answer.activity.result.stampLoginResult as { session: string }).session);
    expect(claims).toMatchObject({
      session_profile_id: profileId,
      scope: "activity.resource != 'WALLET'",
      session_type: "no wallets",
      user_id: agent.userId,
    });
    // The profile's 600 seconds cap the 3600 asked for.
    expect(claims.exp).toBeGreaterThanOrEqual(before + 600);
    expect(claims.exp).toBeLessThanOrEqual(before + 601);

    const keys = await httpClient(org, org.apiKey).getApiKeys({
      organizationId: org.organizationId,
      userId: agent.userId,
    });
    expect(conformanceFaults("/public/v1/query/get_api_keys", keys)).toEqual([]);
    const sessionRow = keys.apiKeys.find((k) => k.credential.publicKey === sessionKey.apiPublicKey);
    expect(sessionRow).toMatchObject({
      expirationSeconds: "600",
      credential: { type: "CREDENTIAL_TYPE_LOGIN", sessionProfileId: profileId },
    });

    // A shorter lifetime asked for is kept; a default session names no profile.
    const shorter = await stampLogin(org, agent.apiKey, org.organizationId, profileId, "60");
    const shortClaims = claimsOf((shorter.answer.activity.result.stampLoginResult as { session: string }).session);
    expect(shortClaims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 60);
    const plain = await stampLogin(org, agent.apiKey, org.organizationId);
    const plainClaims = claimsOf((plain.answer.activity.result.stampLoginResult as { session: string }).session);
    expect(plainClaims.session_type).toBe("SESSION_TYPE_READ_WRITE");
    expect(plainClaims.session_profile_id).toBeUndefined();

    // The scope bounds the session: no wallet, though the agent's policy allows everything.
    const asSession = httpClient(org, sessionKey);
    const refused = await refusalOf(
      asSession.createWallet({
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        ...envelope(org.organizationId),
        parameters: { walletName: "out of scope", accounts: [ETHEREUM_ACCOUNT] },
      }),
    );
    expect(refused?.name).toBe("TurnkeyRequestError");
    expect(refused?.details?.some((d) => d.turnkeyErrorCode === "SESSION_SCOPE_DENIED")).toBe(true);
    const { wallets } = await httpClient(org, org.apiKey).getWallets({ organizationId: org.organizationId });
    expect(wallets).toEqual([]);
    const tag = await asSession.createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      ...envelope(org.organizationId),
      parameters: { userTagName: "in scope", userIds: [] },
    });
    expect(tag.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    // The same user's default session is not bounded.
    const unbounded = await httpClient(org, plain.sessionKey).createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      ...envelope(org.organizationId),
      parameters: { walletName: "default session", accounts: [ETHEREUM_ACCOUNT] },
    });
    expect(unbounded.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});

describe("OTP and OAuth log-ins under a parent's profile through @turnkey/sdk-server", () => {
  it("issue sessions naming the profile, capped by it", async () => {
    const EMAIL = "erin@example.test";
    const issuer = await TestIssuer.create();
    const fixture = await engineWithOrganization({ oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } } });
    const server = await serve(fixture.engine);
    servers.push(server);
    const client = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: fixture.rootKey.publicKey,
      apiPrivateKey: fixture.rootKey.privateKey,
      defaultOrganizationId: fixture.organizationId,
    }).apiClient();
    const { sessionProfileId } = await client.createSessionProfile({
      sessionProfileName: "end-user session",
      scope: "activity.action != 'EXPORT'",
      expirationSeconds: "300",
    });

    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({
      otpType: "OTP_TYPE_EMAIL",
      contact: EMAIL,
      appName: "Demo",
    });
    const code = fixture.engine.outbox(EMAIL).at(-1)?.otpCode as string;
    const key = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(
      code,
      otpEncryptionTargetBundle,
      key.publicKey,
      await fixture.engine.signerPublicKey(),
    );
    const { verificationToken } = await client.verifyOtp({ otpId, encryptedOtpBundle });
    const signup = getClientSignatureMessageForSignup({ verificationToken, email: EMAIL });
    const oauthProviders = [{ providerName: "issuer", oidcToken: await issuer.token({ sub: "erin" }) }];
    const { subOrganizationId } = await client.createSubOrganization({
      subOrganizationName: "erin",
      rootUsers: [{ userName: "erin", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders }],
      rootQuorumThreshold: 1,
      verificationToken,
      clientSignature: {
        publicKey: key.publicKey,
        scheme: "CLIENT_SIGNATURE_SCHEME_API_P256",
        message: signup.message,
        signature: await signWithApiKey({ content: signup.message, ...key }),
      },
    });

    const sessionKey = generateP256KeyPair();
    const login = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: sessionKey.publicKey });
    const before = Math.floor(Date.now() / 1000);
    const otp = await client.otpLogin({
      organizationId: subOrganizationId,
      verificationToken,
      publicKey: sessionKey.publicKey,
      expirationSeconds: "3600",
      sessionProfileId,
      clientSignature: {
        publicKey: key.publicKey,
        scheme: "CLIENT_SIGNATURE_SCHEME_API_P256",
        message: login.message,
        signature: await signWithApiKey({ content: login.message, ...key }),
      },
    });
    const otpClaims = claimsOf(otp.session);
    expect(otpClaims).toMatchObject({ session_profile_id: sessionProfileId, session_type: "end-user session" });
    expect(otpClaims.exp).toBeLessThanOrEqual(before + 301);

    const oauthKey = generateP256KeyPair();
    const oauth = await client.oauthLogin({
      organizationId: subOrganizationId,
      oidcToken: await issuer.token({ sub: "erin", extra: { nonce: oidcNonceFor(oauthKey.publicKey) } }),
      publicKey: oauthKey.publicKey,
      sessionProfileId,
    });
    expect(claimsOf(oauth.session)).toMatchObject({
      session_profile_id: sessionProfileId,
      scope: "activity.action != 'EXPORT'",
    });
  });
});

describe("elevated sessions and MFA", () => {
  it("requires the elevated session for an activity, and a second factor to obtain it", async () => {
    const org = await organization();
    const agent = await agentOf(org);
    const elevated = await createProfile(org, {
      sessionProfileName: "elevated",
      scope: "true",
      expirationSeconds: "900",
    });
    const root = httpClient(org, org.apiKey);
    const { user } = await root.getUser({ organizationId: org.organizationId, userId: agent.userId });
    const agentKeyId = user.apiKeys[0]?.apiKeyId as string;
    const mfa = (mfaPolicyName: string, condition: string, any: { type: string; id?: string }[], order: number) =>
      root.createMfaPolicy({
        type: "ACTIVITY_TYPE_CREATE_MFA_POLICY",
        ...envelope(org.organizationId),
        parameters: {
          userId: agent.userId,
          mfaPolicyName,
          condition,
          requiredAuthenticationMethods: any.map((method) => ({ any: [method] })),
          order,
        } as never,
      });
    // The elevated session costs the default session and the agent's API key.
    await mfa(
      "elevate",
      `activity.resource == 'AUTH' && activity.params.session_profile_id == '${elevated}'`,
      [
        { type: "AUTHENTICATION_TYPE_SESSION", id: DEFAULT_SESSION },
        { type: "AUTHENTICATION_TYPE_API_KEY", id: agentKeyId },
      ],
      0,
    );
    // Creating a wallet needs the elevated session.
    await mfa("wallets", CREATE_WALLET, [{ type: "AUTHENTICATION_TYPE_SESSION", id: elevated }], 1);

    const basic = await stampLogin(org, agent.apiKey, org.organizationId);
    expect(basic.answer.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const createWallet = (key: ApiKeyPair, walletName: string) =>
      httpClient(org, key).createWallet({
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        ...envelope(org.organizationId),
        parameters: { walletName, accounts: [ETHEREUM_ACCOUNT] },
      });
    const held = await createWallet(basic.sessionKey, "with the basic session");
    expect(held.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    const status = await root.getMfaStatus({ organizationId: org.organizationId, activityId: held.activity.id });
    expect(conformanceFaults("/public/v1/query/get_mfa_status", status)).toEqual([]);
    expect(status.mfaStatuses[0]?.satisfied).toBe(false);

    // The default session asks for the elevated one: held until the API key approves.
    const upgrade = await stampLogin(org, basic.sessionKey, org.organizationId, elevated);
    expect(upgrade.answer.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    expect(upgrade.answer.activity.result).toBeNull();
    const upgradeStatus = await root.getMfaStatus({
      organizationId: org.organizationId,
      activityId: upgrade.answer.activity.id,
    });
    // The log-in's own stamp, by the default session, proved the session step: a session, not an API key.
    expect(upgradeStatus.mfaStatuses[0]?.satisfiedMethods).toEqual([
      { type: "AUTHENTICATION_TYPE_SESSION", id: DEFAULT_SESSION },
    ]);
    const approved = await httpClient(org, agent.apiKey).approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      ...envelope(org.organizationId),
      parameters: { fingerprint: upgrade.answer.activity.fingerprint },
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const session = (approved.activity.result.stampLoginResult as { session: string }).session;
    expect(claimsOf(session)).toMatchObject({ session_profile_id: elevated, session_type: "elevated" });

    const done = await createWallet(upgrade.sessionKey, "with the elevated session");
    expect(done.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(conformanceFaults("/public/v1/submit/create_wallet", done)).toEqual([]);
  });
});

describe("refused session profiles and log-ins", () => {
  const good = { sessionProfileName: "guard", scope: "activity.action == 'SIGN'" };
  const cases: [string, Record<string, unknown>, string][] = [
    ["a scope that does not parse", { scope: "activity.action ==" }, "parameters.scope"],
    ["a scope reading an unknown field", { scope: "eth.tx.recipient == 'x'" }, "parameters.scope"],
    ["a blank scope", { scope: "  " }, "parameters.scope"],
    ["an over-long scope", { scope: `true && ${"true || ".repeat(20_000)}true` }, "parameters.scope"],
    ["an empty name", { sessionProfileName: "" }, "parameters.sessionProfileName"],
    ["a name with a NUL", { sessionProfileName: "a\u0000b" }, "parameters.sessionProfileName"],
    ["a zero lifetime", { expirationSeconds: "0" }, "parameters.expirationSeconds"],
    ["a lifetime over a year", { expirationSeconds: "31536001" }, "parameters.expirationSeconds"],
    ["a lifetime that is not a number", { expirationSeconds: "soon" }, "parameters.expirationSeconds"],
    ["over-long notes", { notes: "n".repeat(16_385) }, "parameters.notes"],
  ];

  it.each(cases)("refuses %s, naming the field and storing nothing", async (_what, change, field) => {
    const org = await organization();
    const client = httpClient(org, org.apiKey);
    const refusal = await refusalOf(
      client.createSessionProfile({
        type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
        ...envelope(org.organizationId),
        parameters: { ...good, ...change } as never,
      }),
    );
    expect(refusal?.name).toBe("TurnkeyRequestError");
    expect(fieldDetail(refusal)).toMatchObject({ code: "INVALID_ARGUMENT", field });
    const { sessionProfiles } = await client.getSessionProfiles({ organizationId: org.organizationId });
    expect(sessionProfiles).toEqual([]);
  });

  it("refuses a profile past 100 in one organization, storing nothing", async () => {
    const org = await organization();
    const client = httpClient(org, org.apiKey);
    const create = (n: number) =>
      client.createSessionProfile({
        type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
        ...envelope(org.organizationId),
        parameters: { sessionProfileName: `profile ${n}`, scope: "true" },
      });
    for (let n = 0; n < 100; n++) await create(n);
    const refusal = await refusalOf(create(100));
    expect(fieldDetail(refusal)).toMatchObject({ code: "RESOURCE_EXHAUSTED", field: "parameters.sessionProfileName" });
    const { sessionProfiles } = await client.getSessionProfiles({ organizationId: org.organizationId });
    expect(sessionProfiles).toHaveLength(100);
  });

  it("refuses a log-in naming a profile it cannot see, registering no key", async () => {
    const org = await organization();
    const other = await organization();
    const agent = await agentOf(org);
    const foreign = await createProfile(other, { sessionProfileName: "elsewhere", scope: "true" });
    const root = httpClient(org, org.apiKey);
    const keysBefore = await root.getApiKeys({ organizationId: org.organizationId, userId: agent.userId });
    for (const sessionProfileId of ["no-such-profile", foreign]) {
      const refusal = await refusalOf(stampLogin(org, agent.apiKey, org.organizationId, sessionProfileId));
      expect(fieldDetail(refusal)).toMatchObject({ code: "NOT_FOUND", field: "parameters.sessionProfileId" });
    }
    const refusal = await refusalOf(
      root.getSessionProfile({ organizationId: org.organizationId, sessionProfileId: foreign }),
    );
    expect(fieldDetail(refusal)).toMatchObject({ code: "NOT_FOUND", field: "sessionProfileId" });
    const keysAfter = await root.getApiKeys({ organizationId: org.organizationId, userId: agent.userId });
    expect(keysAfter).toEqual(keysBefore);
  });
});
