/**
 * `custodian serve --signer-threads N [--signer-thread-nice N]`: the engine's `signerThreads` and
 * `signerThreadNice` options from the command line. Signatures made on the server's worker threads, requested
 * by the official client over HTTP, verify with viem; the threads run at the nice value given (Linux); a value
 * the engine cannot use is refused at start, naming the flag or the option.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { recoverAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletParameters } from "../support/consensus.js";
import { type DevServer, runCli, startDevServer } from "../support/dev-server.js";
import { threadNiceValues } from "../support/thread-nice.js";

const DIGEST = "0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658";
let server: DevServer;
let client: TurnkeyClient;
let organizationId: string;

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), "custodian-signer-threads-"));
  server = startDevServer([
    ...["--port", "0", "--data", data, "--memory", "--quiet"],
    ...["--signer-threads", "2", "--signer-thread-nice", "7"],
  ]);
  const baseUrl = await server.ready;
  const credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as Record<
    string,
    string
  >;
  organizationId = credentials.organizationId as string;
  client = new TurnkeyClient(
    { baseUrl },
    new ApiKeyStamper({
      apiPublicKey: credentials.apiPublicKey as string,
      apiPrivateKey: credentials.apiPrivateKey as string,
    }),
  );
}, 60_000);

afterAll(async () => {
  // The server must still exit on SIGINT with its threads started.
  expect(await server.stop()).toBe(0);
});

describe("custodian serve --signer-threads", () => {
  it("signs concurrent requests on its threads, each signature by the wallet's key", async () => {
    const wallet = await client.createWallet({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: walletParameters("threads"),
    });
    const [address] = wallet.activity.result.createWalletResult!.addresses as [`0x${string}`];
    const signed = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client.signRawPayload({
          type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
          // Distinct bodies: the same body twice would be one activity.
          timestampMs: String(Date.now() + i),
          organizationId,
          parameters: {
            signWith: address,
            payload: DIGEST,
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
          },
        }),
      ),
    );
    for (const { activity } of signed) {
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const { r, s, v } = activity.result.signRawPayloadResult!;
      const recovered = await recoverAddress({
        hash: DIGEST,
        signature: { r: `0x${r}`, s: `0x${s}`, yParity: Number.parseInt(v, 16) },
      });
      expect(recovered).toBe(address);
    }
  });

  it.runIf(process.platform === "linux")("runs its signer threads, and only them, at --signer-thread-nice", () => {
    // The threads signed in the test above.
    const nice = threadNiceValues(server.child.pid as number);
    expect(nice.filter((value) => value === 7)).toHaveLength(2);
    expect(nice.filter((value) => value !== 7 && value !== 0)).toEqual([]);
  });

  it("refuses a count that is not a positive integer, or more threads than the engine allows", async () => {
    const data = () => mkdtempSync(join(tmpdir(), "custodian-signer-threads-bad-"));
    const zero = await runCli(["serve", "--port", "0", "--data", data(), "--memory", "--signer-threads", "0"]);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain("--signer-threads must be a positive integer, got 0");
    const many = await runCli(["serve", "--port", "0", "--data", data(), "--memory", "--signer-threads", "65"]);
    expect(many.code).not.toBe(0);
    expect(many.stderr).toContain("signerThreads");
    const word = await runCli(["serve", "--port", "0", "--data", data(), "--memory", "--signer-thread-nice", "low"]);
    expect(word.code).not.toBe(0);
    expect(word.stderr).toContain("--signer-thread-nice must be a whole number, got low");
    const high = await runCli([
      ...["serve", "--port", "0", "--data", data(), "--memory"],
      ...["--signer-threads", "1", "--signer-thread-nice", "20"],
    ]);
    expect(high.code).not.toBe(0);
    expect(high.stderr).toContain("signerThreadNice must be a whole number from 0 to 19");
  });
});
