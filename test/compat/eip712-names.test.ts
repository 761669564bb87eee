/**
 * EIP-712 documents through the HTTP adapter: @turnkey/viem signs Hyperliquid's
 * `HyperliquidTransaction:ApproveAgent` and viem recovers the signer; a document with a cyclic or undefined
 * type reaches @turnkey/sdk-server as INVALID_ARGUMENT naming the payload, and no signature is returned.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { createWalletClient, custom, recoverTypedDataAddress } from "viem";
import { arbitrum } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVE_AGENT } from "../crypto/sign/fixtures.js";
import { walletParameters } from "../support/consensus.js";
import { engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let httpClient: TurnkeyClient;
let api: ReturnType<Turnkey["apiClient"]>;
let address: `0x${string}`;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  organizationId = fixture.organizationId;
  server = await serve(fixture.engine);
  const { publicKey, privateKey } = fixture.rootKey;
  httpClient = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey }),
  );
  api = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: publicKey,
    apiPrivateKey: privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
  const { activity } = await fixture.root.createWallet({ organizationId, parameters: walletParameters("hl") });
  address = (activity.result!.createWalletResult as { addresses: `0x${string}`[] }).addresses[0]!;
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("EIP-712 type names over HTTP", () => {
  it("signs Hyperliquid's ApproveAgent through @turnkey/viem, and viem recovers the account", async () => {
    const account = await createAccount({ client: httpClient as never, organizationId, signWith: address });
    const wallet = createWalletClient({ account, chain: arbitrum, transport: custom({ request: async () => null }) });
    const signature = await wallet.signTypedData(APPROVE_AGENT);
    expect(await recoverTypedDataAddress({ ...APPROVE_AGENT, signature })).toBe(address);
  });

  it("signs ApproveAgent as Hyperliquid's SDK sends it, with members its type does not declare", async () => {
    // Hyperliquid signs the action itself as the message: `type` and `signatureChainId` ride along undeclared.
    const action = { ...APPROVE_AGENT.message, type: "approveAgent", signatureChainId: "0xa4b1" };
    const account = await createAccount({ client: httpClient as never, organizationId, signWith: address });
    const wallet = createWalletClient({ account, chain: arbitrum, transport: custom({ request: async () => null }) });
    const signature = await wallet.signTypedData({ ...APPROVE_AGENT, message: action });
    expect(await recoverTypedDataAddress({ ...APPROVE_AGENT, signature })).toBe(address);
  });

  it("refuses cyclic and undefined types with INVALID_ARGUMENT naming the payload", async () => {
    const documents = [
      {
        types: { EIP712Domain: [], "a:A": [{ name: "b", type: "b:B" }], "b:B": [{ name: "a", type: "a:A[]" }] },
        primaryType: "a:A",
        domain: {},
        message: { b: { a: [] } },
      },
      {
        types: { EIP712Domain: [], T: [{ name: "x", type: "Undefined:Type" }] },
        primaryType: "T",
        domain: {},
        message: { x: {} },
      },
    ];
    for (const [i, doc] of documents.entries()) {
      const error = (await api
        .signRawPayload({
          signWith: address,
          payload: JSON.stringify(doc),
          encoding: "PAYLOAD_ENCODING_EIP712",
          hashFunction: "HASH_FUNCTION_NO_OP",
        })
        .then(
          () => {
            throw new Error("expected a refusal");
          },
          (e: unknown) => e,
        )) as { code: number; message: string };
      expect(error.code).toBe(3);
      expect(error.message).toMatch(i === 0 ? /refers to itself/ : /do not define/);
      expect(error.message).toContain("parameters.payload");
    }
    // Each refusal is recorded as a failed activity, without a result.
    const { activities } = await api.getActivities({ filterByType: ["ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"] });
    const failed = activities.filter((a) => a.status === "ACTIVITY_STATUS_FAILED");
    expect(failed).toHaveLength(2);
    for (const activity of failed) expect(activity.result?.signRawPayloadResult).toBeUndefined();
  });
});
