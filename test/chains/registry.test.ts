/**
 * The chains option and the send-status query through the public API: a backend per CAIP-2 id, checked when
 * the engine is made; an unknown status id is NOT_FOUND; endpoints may subscribe to send-status updates.
 */
import { describe, expect, it } from "vitest";
import { chainsOf } from "../../src/cli/serve.js";
import { CustodyEngine, httpChainBackend } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

describe("the chains option", () => {
  it("accepts URLs and backend objects by CAIP-2 id", () => {
    expect(
      () =>
        new CustodyEngine({
          chains: {
            "eip155:31337": "http://127.0.0.1:8545",
            "eip155:1337": httpChainBackend("http://127.0.0.1:8546", { timeoutMs: 2000 }),
            "solana:devnet": { request: async () => null },
          },
        }),
    ).not.toThrow();
  });

  it.each([
    [{ "ethereum-31337": "http://127.0.0.1:8545" }, "chains.ethereum-31337"],
    [{ "eip155:31337": "not a url" }, "chains.eip155:31337"],
    [{ "eip155:31337": "ftp://127.0.0.1/" }, "chains.eip155:31337"],
    [{ "eip155:31337": { url: "http://127.0.0.1:8545" } }, "chains.eip155:31337"],
  ])("refuses %j", async (chains, field) => {
    await expectCustodyError((async () => new CustodyEngine({ chains: chains as never }))(), "INVALID_ARGUMENT", field);
  });
});

describe("get_send_transaction_status", () => {
  it("is NOT_FOUND for an id no send recorded", async () => {
    const { root, organizationId } = await engineWithOrganization();
    await expectCustodyError(
      root.getSendTransactionStatus({ organizationId, sendTransactionStatusId: "unknown" }),
      "NOT_FOUND",
      "sendTransactionStatusId",
    );
  });
});

describe("webhook endpoints", () => {
  it("take SEND_TRANSACTION_STATUS_UPDATES subscriptions", async () => {
    const { root, organizationId } = await engineWithOrganization({ allowInsecureWebhooks: true });
    const { activity } = await root.createWebhookEndpoint({
      organizationId,
      parameters: {
        url: "http://127.0.0.1:9/hook",
        name: "tx updates",
        subscriptions: [{ eventType: "SEND_TRANSACTION_STATUS_UPDATES" }],
      },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});

describe("serve --rpc", () => {
  it("reads CAIP2=URL pairs, the URL's own '=' kept", () => {
    expect(chainsOf(["eip155:31337=http://127.0.0.1:8545", "solana:devnet=http://127.0.0.1:8899/?a=b"])).toEqual({
      "eip155:31337": "http://127.0.0.1:8545",
      "solana:devnet": "http://127.0.0.1:8899/?a=b",
    });
  });

  it.each([["http://127.0.0.1:8545"], ["=http://127.0.0.1:8545"]])("refuses %s", (value) => {
    expect(() => chainsOf([value])).toThrow(/--rpc must be CAIP2=URL/);
  });

  it("refuses a chain named twice", () => {
    expect(() => chainsOf(["eip155:1=http://a.test", "eip155:1=http://b.test"])).toThrow(/twice/);
  });
});
