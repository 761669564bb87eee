/**
 * Passkeys in Chromium: the bundled app signs a user up with `@turnkey/core`'s `signUpWithPasskey` (a new
 * sub-organization through the dev server's auth proxy, the passkey made by a virtual authenticator), then
 * logs in with `loginWithPasskey` from another browser holding the same passkey and no other state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserBench, startBrowserBench } from "../support/browser.js";
import { rootSdkClient } from "../support/dev-server.js";

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

describe("passkeys through @turnkey/core in Chromium", { timeout: 60_000 }, () => {
  it("signs up into a new sub-organization, then logs in from another browser with the same passkey", async () => {
    const first = await bench.openApp();
    const signedUp = await first.call("signUpWithPasskey", "alice");
    expect(signedUp.organizationId).not.toBe(bench.credentials.organizationId);
    expect(signedUp.signedByTokenSigner).toBe(true);
    const [passkey] = await first.authenticator.credentials();
    expect(passkey).toMatchObject({ rpId: "localhost", isResidentCredential: true });
    expect(Buffer.from(passkey?.credentialId as string, "base64").toString("base64url")).toBe(signedUp.credentialId);

    // The dev organization sees the sub-organization, its user and the passkey the browser registered.
    const root = rootSdkClient(bench.baseUrl, bench.credentials);
    const { authenticators } = await root.getAuthenticators({
      organizationId: signedUp.organizationId,
      userId: signedUp.userId,
    });
    expect(authenticators).toHaveLength(1);
    expect(authenticators[0]).toMatchObject({
      authenticatorName: "alice passkey",
      credentialId: signedUp.credentialId,
      credential: { type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" },
    });
    expect(await first.call("fetchUser")).toMatchObject({ userId: signedUp.userId, userName: "alice" });
    const signUpCount = (passkey as { signCount: number }).signCount;
    await first.context.close();

    // Another device: the passkey alone, no session or key in its storage.
    const second = await bench.openApp();
    expect(await second.call("session")).toBeUndefined();
    expect(await second.call("storedKeys")).toEqual([]);
    await second.authenticator.addCredential(passkey as NonNullable<typeof passkey>);
    const loggedIn = await second.call("loginWithPasskey");
    expect(loggedIn).toMatchObject({
      organizationId: signedUp.organizationId,
      userId: signedUp.userId,
      credentialId: signedUp.credentialId,
      signedByTokenSigner: true,
    });
    expect(loggedIn.publicKey).not.toBe(signedUp.publicKey);
    const [used] = await second.authenticator.credentials();
    expect(used?.signCount).toBeGreaterThan(signUpCount);
    expect(await second.call("fetchUser")).toMatchObject({ userId: signedUp.userId, userName: "alice" });
    await second.context.close();
  });

  it("refuses a log-in with a passkey the server never registered", async () => {
    const stranger = await bench.openApp();
    const other = await bench.openApp();
    // A resident credential of this relying party, made on another page and never sent to the server.
    await other.page.evaluate(async () => {
      await navigator.credentials.create({
        publicKey: {
          rp: { id: "localhost", name: "" },
          user: { id: new Uint8Array(16), name: "mallory", displayName: "mallory" },
          challenge: new Uint8Array(32),
          pubKeyCredParams: [{ type: "public-key", alg: -7 }],
          authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        },
      });
    });
    const [unregistered] = await other.authenticator.credentials();
    await stranger.authenticator.addCredential(unregistered as NonNullable<typeof unregistered>);
    await expect(stranger.call("loginWithPasskey")).rejects.toThrow(/could not be found/);
    expect(await stranger.call("session")).toBeUndefined();
    await stranger.context.close();
    await other.context.close();
  });
});
