/**
 * `custodian serve` publishes the key that signs its session JWTs and OTP verification tokens (the banner and
 * the credentials file), and with it `@turnkey/crypto`'s `verifySessionJwtSignature` and
 * `verifyOtpVerificationToken` accept the tokens it issues through `@turnkey/sdk-server`; without the
 * override they check against Turnkey's production keys and refuse them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  verifyOtpVerificationToken,
  verifySessionJwtSignature,
} from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, memoryRootCredentials, rootSdkClient, startDevServer } from "../support/dev-server.js";

const EMAIL = "tokens@example.test";
let server: DevServer;
let credentials: Record<string, string>;
let client: ReturnType<typeof rootSdkClient>;

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), "custodian-token-signer-"));
  server = startDevServer(["--port", "0", "--data", data, "--memory"]);
  const baseUrl = await server.ready;
  credentials = memoryRootCredentials(data);
  client = rootSdkClient(baseUrl, credentials);
}, 60_000);

afterAll(async () => {
  await server.stop();
});

describe("custodian serve: the token signer key", () => {
  it("is printed and written to the credentials file, apart from the bundle signer key", () => {
    const key = credentials.tokenSignerPublicKey as string;
    expect(key).toMatch(/^04[0-9a-f]{128}$/);
    expect(key).not.toBe(credentials.signerPublicKey);
    expect(server.output()).toContain(`token signer public key ${key}`);
  });

  it("verifies an OTP verification token and a session JWT the server issued", async () => {
    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({
      otpType: "OTP_TYPE_EMAIL",
      contact: EMAIL,
      appName: "Demo",
    });
    let code = "";
    await expect
      .poll(() => {
        code = new RegExp(`outbox: email to ${EMAIL} code (\\S+)`).exec(server.output())?.[1] ?? "";
        return code;
      })
      .not.toBe("");
    const target = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(
      code,
      otpEncryptionTargetBundle,
      target.publicKey,
      credentials.signerPublicKey as string,
    );
    const { verificationToken } = await client.verifyOtp({ otpId, encryptedOtpBundle });
    const claims = await verifyOtpVerificationToken(verificationToken, credentials.tokenSignerPublicKey);
    expect(claims).toMatchObject({ contact: EMAIL });
    await expect(verifyOtpVerificationToken(verificationToken)).rejects.toThrow();

    const sessionKey = generateP256KeyPair();
    const { session } = await client.stampLogin({ publicKey: sessionKey.publicKey });
    expect(await verifySessionJwtSignature(session, credentials.tokenSignerPublicKey)).toBe(true);
    expect(await verifySessionJwtSignature(session)).toBe(false);
  });
});
