/**
 * Email recovery through @turnkey/http over the HTTP adapter: `initUserEmailRecovery` mails the user a
 * recovery credential sealed to the client's key (opened with @turnkey/crypto's `decryptCredentialBundle`),
 * the client stamps `recoverUser` with it (@turnkey/api-key-stamper), the new passkey is registered, and the
 * credential is spent: the next request it stamps is refused. `listEmailEvents` lists the emails sent.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "../../src/crypto/bytes.js";
import type { CustodyEngine } from "../../src/index.js";
import { engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { passkeyParams } from "../support/signers.js";
import { SoftwareAuthenticator } from "../support/software-authenticator.js";

const EMAIL = "alice@acme.test";

let engine: CustodyEngine;
let server: RunningServer;
let organizationId: string;
let rootClient: TurnkeyClient;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  ({ engine, organizationId } = fixture);
  server = await serve(engine);
  const { rootKey } = fixture;
  rootClient = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
  );
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

/** A client stamping with the recovery credential the latest email to `email` carries. */
function recoveryClient(email: string, targetPrivateKey: string): { client: TurnkeyClient; publicKey: string } {
  const bundle = engine.outbox(email).at(-1)?.credentialBundle as string;
  const privateKey = decryptCredentialBundle(bundle, targetPrivateKey);
  const publicKey = bytesToHex(getPublicKey(hexToBytes(privateKey), true));
  const stamper = new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey });
  return { client: new TurnkeyClient({ baseUrl: server.baseUrl }, stamper), publicKey };
}

async function recover(client: TurnkeyClient, orgId: string, userId: string, authenticator: SoftwareAuthenticator) {
  return client.recoverUser({
    type: "ACTIVITY_TYPE_RECOVER_USER",
    timestampMs: String(Date.now()),
    organizationId: orgId,
    parameters: { userId, authenticator: passkeyParams(authenticator, { authenticatorName: "new laptop" }) },
  });
}

describe("email recovery through @turnkey/http", () => {
  it("mails a recovery credential that recoverUser spends on a new passkey", async () => {
    const { activity: created } = await rootClient.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        users: [
          { userName: "alice", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] },
        ],
      },
    });
    const userId = created.result.createUsersResult?.userIds[0] as string;
    const target = generateP256KeyPair();
    const { activity } = await rootClient.initUserEmailRecovery({
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        email: EMAIL,
        targetPublicKey: target.publicKeyUncompressed,
        emailCustomization: { appName: "Demo" },
      },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.result.initUserEmailRecoveryResult).toEqual({ userId });
    // The bundle travels only in the email: the activity record holds no trace of it.
    const mail = engine.outbox(EMAIL).at(-1);
    expect(mail?.subject).toBe("Recover your Demo account");
    expect(JSON.stringify(activity)).not.toContain(mail?.credentialBundle as string);

    const { client, publicKey } = recoveryClient(EMAIL, target.privateKey);
    const { apiKeys } = await rootClient.getApiKeys({ organizationId, userId });
    expect(apiKeys).toEqual([
      expect.objectContaining({
        credential: { publicKey, type: "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256" },
        expirationSeconds: "900",
      }),
    ]);

    const recovered = await recover(client, organizationId, userId, new SoftwareAuthenticator());
    expect(recovered.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const authenticatorIds = recovered.activity.result.recoverUserResult?.authenticatorId as string[];
    const { authenticators } = await rootClient.getAuthenticators({ organizationId, userId });
    expect(authenticators.map((authenticator) => authenticator.authenticatorId)).toEqual(authenticatorIds);
    expect(authenticators[0]?.authenticatorName).toBe("new laptop");

    // Spent: the credential is gone, and the next request it stamps is refused before any activity exists.
    expect((await rootClient.getApiKeys({ organizationId, userId })).apiKeys).toEqual([]);
    await expect(recover(client, organizationId, userId, new SoftwareAuthenticator())).rejects.toThrow(
      /could not find public key/,
    );
    expect((await rootClient.getAuthenticators({ organizationId, userId })).authenticators).toHaveLength(1);
  });

  it("lists the recovery emails as Send events through listEmailEvents", async () => {
    const { emailEvents } = await rootClient.listEmailEvents({ organizationId, email: EMAIL });
    const sent = engine.outbox(EMAIL);
    expect(sent.length).toBeGreaterThan(0);
    expect(emailEvents.map((event) => [event.eventType, event.toAddress, event.timestamp])).toEqual(
      sent.reverse().map((message) => ["Send", EMAIL, String(message.sentAtMs)]),
    );
  });

  it("lets a parent start the recovery of a sub-organization's user, unless the sub-organization disabled it", async () => {
    const subKey = p256KeyPair();
    const subParameters = subOrganizationParameters("Recoverable", subKey);
    const email = "bob@sub.test";
    const user = { ...(subParameters.rootUsers[0] as (typeof subParameters.rootUsers)[0]), userEmail: email };
    const { activity } = await rootClient.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { ...subParameters, rootUsers: [user] },
    });
    const subOrganizationId = activity.result.createSubOrganizationResultV8?.subOrganizationId as string;
    const bobId = activity.result.createSubOrganizationResultV8?.rootUserIds?.[0] as string;
    const target = generateP256KeyPair();
    const init = await rootClient.initUserEmailRecovery({
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
      timestampMs: String(Date.now()),
      organizationId: subOrganizationId,
      parameters: { email, targetPublicKey: target.publicKey, emailCustomization: { appName: "Demo" } },
    });
    expect(init.activity.result.initUserEmailRecoveryResult?.userId).toBe(bobId);
    const { client } = recoveryClient(email, target.privateKey);
    const recovered = await recover(client, subOrganizationId, bobId, new SoftwareAuthenticator());
    expect(recovered.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

    const lockedParameters = subOrganizationParameters("Locked");
    const locked = await rootClient.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        ...lockedParameters,
        rootUsers: [
          { ...(lockedParameters.rootUsers[0] as (typeof lockedParameters.rootUsers)[0]), userEmail: "carol@sub.test" },
        ],
        disableEmailRecovery: true,
      },
    });
    const lockedId = locked.activity.result.createSubOrganizationResultV8?.subOrganizationId as string;
    await expect(
      rootClient.initUserEmailRecovery({
        type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
        timestampMs: String(Date.now()),
        organizationId: lockedId,
        parameters: {
          email: "carol@sub.test",
          targetPublicKey: target.publicKey,
          emailCustomization: { appName: "D" },
        },
      }),
    ).rejects.toThrow(/email recovery is disabled/);
    expect(engine.outbox("carol@sub.test")).toEqual([]);
  });
});
