/**
 * Email one-time codes in Chromium. `@turnkey/core`'s `completeOtp` checks the OTP target bundle against the
 * hosted service's signer key, which it pins, so it refuses the dev server's bundle; the page then does what
 * docs/differences.md describes: it seals the code with `@turnkey/crypto`'s `encryptOtpCodeToBundle` naming the
 * dev server's signer key, verifies it through core's HTTP client and lets core's `signUpWithOtp` and
 * `loginWithOtp` finish. Where `@turnkey/crypto` takes a key (`verifyOtpVerificationToken`,
 * `verifySessionJwtSignature`), the page passes the dev server's token signer key. The code comes from the dev
 * server's outbox, as a developer reads it from the server's log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppPage, type BrowserBench, startBrowserBench } from "../support/browser.js";

const EMAIL = "frank@example.test";

let bench: BrowserBench;

beforeAll(async () => {
  bench = await startBrowserBench();
}, 90_000);

afterAll(async () => {
  if (!bench) return;
  const problems = bench.problems();
  await bench.close();
  expect(problems).toEqual({ serverErrors: [], pageErrors: [] });
});

/** Asks for a code in the page and reads it from the outbox. */
async function requestCode(app: AppPage) {
  const sent = (await bench.codesSentTo(EMAIL)).length;
  const { otpId, otpEncryptionTargetBundle } = await app.call("initEmailOtp", EMAIL);
  await expect.poll(async () => (await bench.codesSentTo(EMAIL)).length).toBe(sent + 1);
  const otpCode = (await bench.codesSentTo(EMAIL)).at(-1) as string;
  return { otpId, otpEncryptionTargetBundle, otpCode, email: EMAIL };
}

describe("email OTP through @turnkey/core in Chromium", { timeout: 60_000 }, () => {
  it("signs up with the documented workaround where core pins the hosted key, then logs in again", async () => {
    const first = await bench.openApp();
    const code = await requestCode(first);
    // Core as shipped refuses the bundle before anything is sent.
    await expect(first.call("completeOtpAsShipped", code)).rejects.toThrow(
      `does not match signer key from bundle: ${bench.credentials.signerPublicKey}`,
    );

    const signedUp = await first.call("completeEmailOtp", code);
    expect(signedUp).toMatchObject({ action: "SIGNUP", verifiedContact: EMAIL, signedByTokenSigner: true });
    expect(signedUp.organizationId).not.toBe(bench.credentials.organizationId);
    // The key the verification token binds becomes the session key, kept in IndexedDB.
    expect(signedUp.publicKey).toBe(signedUp.verificationPublicKey);
    expect(await first.call("storedKeys")).toContainEqual({
      publicKey: signedUp.publicKey,
      type: "private",
      extractable: false,
    });
    expect(await first.call("fetchUser")).toMatchObject({ userId: signedUp.userId, userEmail: EMAIL });
    await first.context.close();

    const second = await bench.openApp();
    const loggedIn = await second.call("completeEmailOtp", await requestCode(second));
    expect(loggedIn).toMatchObject({
      action: "LOGIN",
      organizationId: signedUp.organizationId,
      userId: signedUp.userId,
      signedByTokenSigner: true,
    });
    expect(loggedIn.publicKey).not.toBe(signedUp.publicKey);
    await second.context.close();
  });

  it("refuses a wrong code", async () => {
    const app = await bench.openApp();
    const code = await requestCode(app);
    const wrong = code.otpCode.startsWith("A") ? `B${code.otpCode.slice(1)}` : `A${code.otpCode.slice(1)}`;
    await expect(app.call("completeEmailOtp", { ...code, otpCode: wrong })).rejects.toThrow(/Invalid OTP code/);
    expect(await app.call("session")).toBeUndefined();
    await app.context.close();
  });
});
