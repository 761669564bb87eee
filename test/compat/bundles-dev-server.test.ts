/**
 * `custodian serve` with bundles and OAuth as a developer uses it: the printed and written signer key opens
 * an export made through @turnkey/sdk-server, and `--oidc-issuer` lets an OAuth sign-in verify against a
 * local issuer's JWKS URL.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { decryptCredentialBundle, decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../support/dev-server.js";
import { serveJwks, TestIssuer } from "../support/oidc.js";

let issuer: TestIssuer;
let jwks: Awaited<ReturnType<typeof serveJwks>>;
let server: DevServer;
let baseUrl: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  issuer = await TestIssuer.create("https://dev-issuer.test", "RS256");
  jwks = await serveJwks(issuer.jwks);
  const data = mkdtempSync(join(tmpdir(), "custodian-bundles-"));
  server = startDevServer(["--port", "0", "--data", data, "--memory", "--oidc-issuer", `${issuer.issuer}=${jwks.uri}`]);
  baseUrl = await server.ready;
  // A --memory run keeps its credentials apart from the durable store's root-api-key.json.
  credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<string, string>;
}, 60_000);

afterAll(async () => {
  await server.stop();
  await jwks.close();
});

function client() {
  return new Turnkey({
    apiBaseUrl: baseUrl,
    apiPublicKey: credentials.apiPublicKey as string,
    apiPrivateKey: credentials.apiPrivateKey as string,
    defaultOrganizationId: credentials.organizationId as string,
  }).apiClient();
}

describe("custodian serve: bundles and OAuth", () => {
  it("prints the signer key and writes it to the credentials file; it opens an export bundle", async () => {
    const signerPublicKey = credentials.signerPublicKey as string;
    expect(signerPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(server.output()).toContain(`bundle signer public key ${signerPublicKey}`);
    const tk = client();
    const path = "m/44'/60'/0'/0/0";
    const { walletId, addresses } = await tk.createWallet({
      walletName: "dev",
      accounts: [
        { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path, addressFormat: "ADDRESS_FORMAT_ETHEREUM" },
      ],
    });
    const target = generateP256KeyPair();
    const { exportBundle } = await tk.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
    const mnemonic = await decryptExportBundle({
      exportBundle,
      embeddedKey: target.privateKey,
      organizationId: credentials.organizationId as string,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: true,
    });
    expect(mnemonicToAccount(mnemonic, { path }).address).toBe(addresses[0]);
  });

  it("verifies OIDC tokens against the --oidc-issuer key set", async () => {
    const tk = client();
    await tk.createOauthProviders({
      userId: credentials.userId as string,
      oauthProviders: [{ providerName: "dev", oidcToken: await issuer.token({ sub: "root-sub" }) }],
    });
    const target = generateP256KeyPair();
    const nonce = bytesToHex(sha256(utf8ToBytes(target.publicKey)));
    const oidcToken = await issuer.token({ sub: "root-sub", extra: { nonce } });
    const { userId, credentialBundle } = await tk.oauth({ oidcToken, targetPublicKey: target.publicKey });
    expect(userId).toBe(credentials.userId);
    expect(decryptCredentialBundle(credentialBundle, target.privateKey)).toMatch(/^[0-9a-f]{64}$/);
    expect(jwks.state.fetches).toBeGreaterThan(0);
  });
});
