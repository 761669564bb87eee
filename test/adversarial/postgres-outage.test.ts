/**
 * A PostgreSQL outage, as a stranger's requests meet it: PostgreSQL behind a TCP forwarder the test stops and
 * starts. Every request is answered 503 (`UNAVAILABLE`, gRPC 14) instead of 500, with nothing handed to the
 * host's error log, and an outage in the middle of an activity records nothing: the same body sent again after
 * it completes, rather than replaying a failure the database caused. Needs the server (`CUSTODIAN_PG_URL`).
 */
import { randomBytes } from "node:crypto";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainBackend } from "../../src/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import { walletParameters } from "../support/consensus.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { freshSchema, serverUrl } from "../support/postgres.js";
import { post, type RunningServer, serve } from "../support/server.js";
import { startTcpForwarder, type TcpForwarder, throughForwarder } from "../support/tcp-forwarder.js";

const CAIP2 = "eip155:31337";

/** Cuts the database off for `ms` when armed; the chain call it is made from then goes on. */
let cutNext: { ms: number } | undefined;
let forwarder: TcpForwarder;
let fixture: Awaited<ReturnType<typeof engineWithOrganization>>;
let server: RunningServer;

/**
 * A chain node that answers a send's every call (a devnet's answers, by rote). The engine asks it inside the
 * activity's store transaction, so it is where the test cuts the database off mid-activity.
 */
const node: ChainBackend = {
  async request(method) {
    if (cutNext !== undefined) {
      const { ms } = cutNext;
      cutNext = undefined;
      await forwarder.stop();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await forwarder.start();
    }
    const answers: Record<string, unknown> = {
      eth_chainId: "0x7a69",
      eth_getTransactionCount: "0x0",
      eth_getBlockByNumber: { baseFeePerGas: "0x1" },
      eth_maxPriorityFeePerGas: "0x1",
      eth_estimateGas: "0x5208",
      eth_sendRawTransaction: "0x00",
      eth_getTransactionReceipt: null,
    };
    return answers[method] ?? null;
  },
};

beforeAll(async () => {
  if (!serverUrl) return;
  const { hostname, port } = new URL(serverUrl);
  forwarder = await startTcpForwarder({ host: hostname, port: Number(port || 5432) });
  const store = await PostgresStore.open(throughForwarder(serverUrl, forwarder), { schema: freshSchema() });
  fixture = await engineWithOrganization({ store, keyEncryptionKey: randomBytes(32), chains: { [CAIP2]: node } });
  server = await serve(fixture.engine);
});
afterAll(async () => {
  if (!serverUrl) return;
  await server.close();
  await fixture.engine.close();
  await forwarder.stop();
});

async function stamped(path: string, body: string, key = fixture.rootKey) {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  return post(`${server.baseUrl}/public/v1/${path}`, body, { [stampHeaderName]: stampHeaderValue });
}

describe.runIf(serverUrl)("a PostgreSQL outage met by requests", () => {
  it("answers every request 503 with gRPC code 14 while the database is down, and nothing as an error", async () => {
    const whoami = JSON.stringify({ organizationId: fixture.organizationId });
    await forwarder.stop();
    try {
      const answers = await Promise.all([
        stamped("query/whoami", whoami),
        stamped("query/whoami", whoami, p256KeyPair()),
        stamped("query/list_wallets", whoami),
        stamped(
          "submit/create_wallet",
          JSON.stringify({
            type: "ACTIVITY_TYPE_CREATE_WALLET",
            timestampMs: String(Date.now()),
            organizationId: fixture.organizationId,
            parameters: walletParameters("during"),
          }),
        ),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.json).toMatchObject({ code: 14, message: expect.stringContaining("database is unavailable") });
      }
      expect(server.errors).toEqual([]);
    } finally {
      await forwarder.start();
    }
  });

  it("records nothing of an activity the outage cut in its middle: the same body completes afterwards", async () => {
    const { activity } = await fixture.root.createWallet({
      organizationId: fixture.organizationId,
      parameters: walletParameters("sender"),
    });
    const from = (activity.result as { createWalletResult: { addresses: string[] } }).createWalletResult
      .addresses[0] as string;
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: { from, to: "0x000000000000000000000000000000000000beef", caip2: CAIP2, value: "1" },
    });
    cutNext = { ms: 100 };
    const cut = await stamped("submit/eth_send_transaction", body);
    expect(cut.status).toBe(503);
    expect(cut.json).toMatchObject({ code: 14 });

    const again = await stamped("submit/eth_send_transaction", body);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ activity: { status: "ACTIVITY_STATUS_COMPLETED" } });
    expect(server.errors).toEqual([]);
  });
});
