/**
 * `custodian serve` and the differences from the hosted service a developer meets first: the exact option
 * @turnkey/crypto's bundle functions need is printed next to the credentials, and `--request-lifetime`
 * widens the window for teams following Turnkey's offline-signing example.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletParameters } from "../support/consensus.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const HOUR = 60 * 60 * 1000;
let server: DevServer;
let baseUrl: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), "custodian-differences-"));
  server = startDevServer(["--port", "0", "--data", data, "--memory", "--request-lifetime", "24h"]);
  baseUrl = await server.ready;
  // A --memory run keeps its credentials apart from a durable store's.
  credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<string, string>;
}, 60_000);

afterAll(async () => {
  await server.stop();
});

function client() {
  return new TurnkeyClient(
    { baseUrl },
    new ApiKeyStamper({
      apiPublicKey: credentials.apiPublicKey as string,
      apiPrivateKey: credentials.apiPrivateKey as string,
    }),
  );
}

function createWallet(ageMs: number, walletName: string) {
  return client().createWallet({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(Date.now() - ageMs),
    organizationId: credentials.organizationId as string,
    parameters: walletParameters(walletName),
  });
}

describe("custodian serve: differences from the hosted service", () => {
  it("prints the dangerouslyOverrideSignerPublicKey option, ready to paste, and it opens an export", async () => {
    const printed = /dangerouslyOverrideSignerPublicKey: "(04[0-9a-f]{128})"/.exec(server.output());
    expect(printed?.[1]).toBe(credentials.signerPublicKey);
    const { activity } = await createWallet(0, "exported");
    const { walletId, addresses } = activity.result.createWalletResult!;
    const target = generateP256KeyPair();
    const exported = await client().exportWallet({
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      timestampMs: String(Date.now()),
      organizationId: credentials.organizationId as string,
      parameters: { walletId, targetPublicKey: target.publicKeyUncompressed },
    });
    const mnemonic = await decryptExportBundle({
      exportBundle: exported.activity.result.exportWalletResult!.exportBundle,
      embeddedKey: target.privateKey,
      organizationId: credentials.organizationId as string,
      dangerouslyOverrideSignerPublicKey: printed?.[1] as string,
      returnMnemonic: true,
    });
    expect(mnemonicToAccount(mnemonic, { path: "m/44'/60'/0'/0/0" }).address).toBe(addresses[0]);
  });

  it("accepts requests up to --request-lifetime old and names that window when refusing", async () => {
    expect(server.output()).toContain("signed requests are valid for 24h");
    expect((await createWallet(23 * HOUR, "signed offline")).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const error = await createWallet(25 * HOUR, "too old").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkeyRequestError);
    expect((error as TurnkeyRequestError).message).toContain("a signed request is valid for 24 hours");
  });

  it("refuses a --request-lifetime without a unit", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-differences-"));
    const bad = startDevServer(["--port", "0", "--data", data, "--memory", "--request-lifetime", "24"]);
    await expect(bad.ready).rejects.toThrow(/--request-lifetime must be a whole number with a unit/);
  });
});
