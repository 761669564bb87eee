/**
 * `custodian serve --sponsor-key` (or `$CUSTODIAN_SPONSOR_KEY`): the engine's `gasStation` option from the
 * command line. With the key of a funded anvil account in the environment and an anvil `--rpc`, a sponsored
 * send by the root user through `@turnkey/sdk-server` is paid by that account and reaches INCLUDED; the key
 * shows nowhere in the server's output. A key that is not one is refused at start without being quoted.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJsonRpc } from "../../src/chains/rpc.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { walletParameters } from "../support/consensus.js";
import { type DevServer, runCli, startDevServer } from "../support/dev-server.js";
import { post } from "../support/server.js";

// anvil's third funded development key and its address.
const SPONSOR_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const SPONSOR = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const CAIP2 = "eip155:31337" as "eip155:1";
const RECIPIENT = "0x000000000000000000000000000000000000beef";

let anvil: RunningAnvil;
let server: DevServer;
let baseUrl: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  anvil = await startAnvil();
  const data = mkdtempSync(join(tmpdir(), "custodian-sponsor-"));
  server = startDevServer(["--port", "0", "--data", data, "--memory", "--rpc", `eip155:31337=${anvil.rpcUrl}`], {
    env: { CUSTODIAN_SPONSOR_KEY: SPONSOR_KEY },
  });
  baseUrl = await server.ready;
  credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<string, string>;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await anvil?.stop();
});

describe("custodian serve with a sponsor", () => {
  it("pays for a sponsored send from an account holding no ether, and never shows the key", async () => {
    const { organizationId, apiPublicKey, apiPrivateKey } = credentials as Record<string, string>;
    const api = new Turnkey({
      apiBaseUrl: baseUrl,
      apiPublicKey: apiPublicKey as string,
      apiPrivateKey: apiPrivateKey as string,
      defaultOrganizationId: organizationId as string,
    }).apiClient();
    const { addresses } = await api.createWallet(walletParameters("Sponsored") as never);
    const from = addresses[0] as string;
    // upsert_gas_usage_config has no client method: a body stamped by the official stamper.
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { orgWindowLimitUsd: "50", subOrgWindowLimitUsd: "5", windowDurationMinutes: "1440" },
    });
    const stamp = await new ApiKeyStamper({
      apiPublicKey: apiPublicKey as string,
      apiPrivateKey: apiPrivateKey as string,
    }).stamp(body);
    const upsert = await post(`${baseUrl}/public/v1/submit/upsert_gas_usage_config`, body, {
      [stamp.stampHeaderName]: stamp.stampHeaderValue,
    });
    expect(upsert.status).toBe(200);

    const { sendTransactionStatusId } = await api.ethSendTransaction({
      from,
      caip2: CAIP2,
      sponsor: true,
      calls: [{ to: RECIPIENT, value: "0", data: "0x" }],
    } as never);
    let status = await api.getSendTransactionStatus({ sendTransactionStatusId });
    while (status.txStatus === "BROADCASTED") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await api.getSendTransactionStatus({ sendTransactionStatusId });
    }
    expect(status.txStatus).toBe("INCLUDED");
    const receipt = (await callJsonRpc(anvil.rpcUrl, "eth_getTransactionReceipt", [status.eth?.txHash])) as Record<
      string,
      string
    >;
    expect(receipt.from).toBe(SPONSOR);
    expect(Number((await api.getGasUsage({})).usageUsd)).toBeGreaterThan(0);
    expect(server.output()).not.toContain(SPONSOR_KEY.slice(2));
  });

  it("refuses a key that is not one at start, without quoting it", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-sponsor-bad-"));
    const run = await runCli(["serve", "--port", "0", "--data", data, "--memory", "--sponsor-key", "0x1234abcd5678"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("gasStation.sponsorPrivateKey must be a secp256k1 private key");
    expect(run.stderr + run.stdout).not.toContain("1234abcd5678");
  });
});
