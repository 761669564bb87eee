import { randomBytes } from "node:crypto";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterEach, describe, expect, it } from "vitest";
import { encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { parseRegistration, parseWebauthnStamp, verifyWebauthnAssertion } from "../../../src/crypto/webauthn/index.js";
import { installNavigatorCredentials, SoftwareAuthenticator } from "../../support/software-authenticator.js";

const RP_ID = "wallet.example";
const ORIGIN = "https://wallet.example";

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  uninstall = undefined;
});

describe("X-Stamp-Webauthn from the official @turnkey/webauthn-stamper", () => {
  for (const algorithm of ["ES256", "RS256"] as const) {
    for (const attestation of ["none", "packed"] as const) {
      it(`registers a ${algorithm} passkey (${attestation}) and verifies the stamper's assertions`, async () => {
        const authenticator = new SoftwareAuthenticator({ algorithm, attestation });
        const challenge = new Uint8Array(randomBytes(32));
        const registration = parseRegistration({
          attestation: authenticator.create({ challenge, rpId: RP_ID, origin: ORIGIN }),
          challenge: encodeBase64Url(challenge),
          rpId: RP_ID,
          origins: [ORIGIN],
        });
        uninstall = installNavigatorCredentials(authenticator, ORIGIN);
        const stamper = new WebauthnStamper({ rpId: RP_ID });

        let signCount = registration.signCount;
        for (const body of ['{"organizationId":"org"}', JSON.stringify({ name: "財布", n: 2 })]) {
          const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
          expect(stampHeaderName).toBe("X-Stamp-Webauthn");
          const stamp = parseWebauthnStamp(stampHeaderValue);
          expect(stamp.credentialId).toBe(registration.credentialId);
          const input = {
            stamp,
            publicKeyCose: registration.publicKeyCose,
            rpId: RP_ID,
            origins: [ORIGIN],
            previousSignCount: signCount,
          };
          const result = verifyWebauthnAssertion({ ...input, body: utf8ToBytes(body) });
          expect(result).toEqual({ ok: true, signCount: signCount + 1 });
          if (result.ok) signCount = result.signCount;
          expect(verifyWebauthnAssertion({ ...input, body: utf8ToBytes(`${body} `) })).toEqual({
            ok: false,
            reason: "CHALLENGE_MISMATCH",
          });
        }
      });
    }
  }

  it("passes allowCredentials through to the authenticator", async () => {
    const authenticator = new SoftwareAuthenticator();
    uninstall = installNavigatorCredentials(authenticator, ORIGIN);
    const allowed = new WebauthnStamper({
      rpId: RP_ID,
      allowCredentials: [{ id: new Uint8Array(authenticator.credentialId), type: "public-key" }],
    });
    await expect(allowed.stamp("{}")).resolves.toMatchObject({ stampHeaderName: "X-Stamp-Webauthn" });
    const other = new WebauthnStamper({
      rpId: RP_ID,
      allowCredentials: [{ id: new Uint8Array(randomBytes(32)), type: "public-key" }],
    });
    await expect(other.stamp("{}")).rejects.toThrow(/NotAllowedError/);
  });

  it("refuses the stamper's assertion when the page's origin is not allowed", async () => {
    const authenticator = new SoftwareAuthenticator();
    const challenge = new Uint8Array(randomBytes(32));
    const registration = parseRegistration({
      attestation: authenticator.create({ challenge, rpId: RP_ID, origin: ORIGIN }),
      challenge: encodeBase64Url(challenge),
      rpId: RP_ID,
      origins: [ORIGIN],
    });
    uninstall = installNavigatorCredentials(authenticator, "https://phish.example");
    const { stampHeaderValue } = await new WebauthnStamper({ rpId: RP_ID }).stamp("{}");
    const result = verifyWebauthnAssertion({
      stamp: parseWebauthnStamp(stampHeaderValue),
      body: utf8ToBytes("{}"),
      publicKeyCose: registration.publicKeyCose,
      rpId: RP_ID,
      origins: [ORIGIN],
      previousSignCount: 0,
    });
    expect(result).toEqual({ ok: false, reason: "ORIGIN_NOT_ALLOWED" });
  });
});
