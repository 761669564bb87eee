/**
 * `custodian serve --rpc CAIP2=URL --token CAIP2=ADDRESS[,SYMBOL]`: the balance queries of the dev server answer
 * the listed token of an anvil devnet through `@turnkey/sdk-server`, and a token on a chain without `--rpc`
 * stops the start with the option's message.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";
import { type DevServer, memoryRootCredentials, rootSdkClient, startDevServer } from "../support/dev-server.js";
import { installTestToken } from "../support/erc20.js";

const EVM = "eip155:31337";
const TOKEN = "0x00000000000000000000000000000000000e2c20";
let anvil: RunningAnvil;
let server: DevServer;
let client: ReturnType<typeof rootSdkClient>;

beforeAll(async () => {
  anvil = await startAnvil();
  await installTestToken(anvil.rpcUrl, TOKEN, { symbol: "TUSD", name: "Test USD", decimals: 6 });
  const data = mkdtempSync(join(tmpdir(), "custodian-tokens-"));
  server = startDevServer([
    ...["--port", "0", "--data", data, "--memory"],
    ...["--rpc", `${EVM}=${anvil.rpcUrl}`, "--token", `${EVM}=${TOKEN},DEV`],
  ]);
  const baseUrl = await server.ready;
  client = rootSdkClient(baseUrl, memoryRootCredentials(data));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await anvil?.stop();
});

describe("custodian serve --token", () => {
  it("lists the token with the symbol given and the rest read from the chain", async () => {
    expect(await client.listSupportedAssets({ caip2: EVM as never })).toEqual({
      assets: [
        { caip19: `${EVM}/slip44:60`, symbol: "ETH", name: "Ether", decimals: 18 },
        { caip19: `${EVM}/erc20:${TOKEN}`, symbol: "DEV", name: "Test USD", decimals: 6 },
      ],
    });
  });

  it("refuses to start with a token on a chain it has no --rpc for", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-tokens-"));
    const refused = startDevServer(["--port", "0", "--data", data, "--memory", "--token", `eip155:1=${TOKEN}`]);
    const error = await refused.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("tokens: eip155:1 is not one of the chains option's chains");
  });
});
