/**
 * OAuth in Chromium: the bundled app sends the browser to a local OIDC provider, which sends it back with an ID
 * token whose nonce commits to a fresh IndexedDB session key; `@turnkey/core`'s `completeOauth` signs the user
 * up through the dev server's auth proxy (`--oidc-issuer` trusts the provider), and logs them in again from
 * another browser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppPage, type BrowserBench, startBrowserBench } from "../support/browser.js";
import { rootSdkClient } from "../support/dev-server.js";
import { startOidcProvider } from "../support/oidc.js";

const CLIENT_ID = "browser-app";

let bench: BrowserBench;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  provider = await startOidcProvider("dana");
  bench = await startBrowserBench({
    oidc: {
      issuer: provider.issuer,
      jwksUri: provider.jwksUri,
      authorizeUrl: provider.authorizeUrl,
      clientId: CLIENT_ID,
    },
  });
}, 90_000);

afterAll(async () => {
  await provider?.close();
  if (!bench) return;
  const problems = bench.problems();
  await bench.close();
  expect(problems).toEqual({ serverErrors: [], pageErrors: [] });
});

/** Clicks the app's log-in button and waits until the provider's answer has signed the user in. */
async function logInWithProvider(app: AppPage) {
  const issuedBefore = provider.state.issued.length;
  await app.page.click("#oauth");
  await app.waitForState("signed-in");
  expect(provider.state.issued).toHaveLength(issuedBefore + 1);
  // The fragment with the token is gone from the address bar.
  expect(new URL(app.page.url()).hash).toBe("");
  const session = await app.call("session");
  return { ...session, action: await app.page.getAttribute("body", "data-action") };
}

describe("OAuth log-in through @turnkey/core in Chromium", { timeout: 60_000 }, () => {
  it("signs a new user up at the first log-in, and logs them in from another browser", async () => {
    const first = await bench.openApp();
    const signedUp = await logInWithProvider(first);
    expect(signedUp).toMatchObject({ action: "SIGNUP", signedByTokenSigner: true });
    expect(signedUp.organizationId).not.toBe(bench.credentials.organizationId);
    expect(await first.call("storedKeys")).toContainEqual({
      publicKey: signedUp.publicKey,
      type: "private",
      extractable: false,
    });
    const root = rootSdkClient(bench.baseUrl, bench.credentials);
    const { oauthProviders } = await root.getOauthProviders({
      organizationId: signedUp.organizationId as string,
      userId: signedUp.userId as string,
    });
    expect(oauthProviders).toMatchObject([
      { providerName: "local issuer", issuer: provider.issuer, subject: "dana", audience: CLIENT_ID },
    ]);
    await first.context.close();

    const second = await bench.openApp();
    const loggedIn = await logInWithProvider(second);
    expect(loggedIn).toMatchObject({
      action: "LOGIN",
      organizationId: signedUp.organizationId,
      userId: signedUp.userId,
      signedByTokenSigner: true,
    });
    expect(loggedIn.publicKey).not.toBe(signedUp.publicKey);
    await second.context.close();
  });

  it("gives another subject of the provider an account of its own", async () => {
    provider.state.subject = "erin";
    const app = await bench.openApp();
    const erin = await logInWithProvider(app);
    provider.state.subject = "dana";
    expect(erin.action).toBe("SIGNUP");
    const again = await bench.openApp();
    const dana = await logInWithProvider(again);
    expect(dana.action).toBe("LOGIN");
    expect(erin.organizationId).not.toBe(dana.organizationId);
    await app.context.close();
    await again.context.close();
  });
});
