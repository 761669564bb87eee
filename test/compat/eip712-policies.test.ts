/**
 * `eth.eip_712` and `eth.eip_7702_authorization` in policies, end to end: a member signs through @turnkey/viem
 * (a @turnkey/http client over the HTTP adapter) under the policy Turnkey's gas-station builder writes
 * (`buildIntentSigningPolicy` in tkhq/sdk `packages/gas-station/src/policyUtils.ts`, its output copied
 * literally below), and viem recovers every signature it lets through.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import {
  createWalletClient,
  custom,
  getAddress,
  getTypesForEIP712Domain,
  recoverTypedDataAddress,
  serializeTypedData,
} from "viem";
import { mainnet } from "viem/chains";
import { recoverAuthorizationAddress } from "viem/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { addPolicy, organizationWithMembers, walletParameters } from "../support/consensus.js";
import { type RunningServer, serve } from "../support/server.js";

// No allow policy applies: the hosted service's implicit-deny answer, gRPC code 7, as @turnkey/viem words it.
const IMPLICIT_DENIAL = /Turnkey error 7: You don't have sufficient permissions/;
// A deny policy applies: the hosted service's explicit-deny answer.
const EXPLICIT_DENIAL = /Turnkey error 7: policy engine denied request explicitly/;

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const DAI = "0x6B175474E89094C44Da98b954EedeAC495271d0F";
const DELEGATE = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B";

let server: RunningServer;
let organizationId: string;
let root: CustodyEngine;
let memberClient: TurnkeyClient;
let memberUserId: string;
let memberKey: { publicKey: string; privateKey: string };
let eoa: `0x${string}`;

beforeAll(async () => {
  const fixture = await organizationWithMembers(["eoa"]);
  ({ organizationId, root } = fixture);
  memberUserId = fixture.members.eoa.userId;
  memberKey = fixture.members.eoa.key;
  server = await serve(fixture.engine);
  memberClient = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: memberKey.publicKey, apiPrivateKey: memberKey.privateKey }),
  );
  const { activity } = await root.createWallet({ organizationId, parameters: walletParameters("eoa") });
  eoa = (activity.result!.createWalletResult as { addresses: `0x${string}`[] }).addresses[0]!;
  // buildIntentSigningPolicy({ organizationId, eoaUserId, restrictions: { allowedContracts: [USDC],
  // disallowEthTransfer: true } }), verbatim:
  await addPolicy(root, organizationId, {
    policyName: "Gas Station Intent Signing Policy",
    effect: "EFFECT_ALLOW",
    consensus: `approvers.any(user, user.id == '${memberUserId}')`,
    condition:
      "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && " +
      "eth.eip_712.primary_type == 'Execution' && " +
      `(eth.eip_712.message['to'] == '${USDC.toLowerCase()}') && ` +
      "eth.eip_712.message['value'] == '0'",
  });
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

/** The gas station's Execution intent, as its intent builder has the EOA's wallet client sign it. */
function execution(to: string, value: bigint) {
  return {
    domain: { name: "TKGasDelegate", version: "1", chainId: 1, verifyingContract: eoa },
    types: {
      Execution: [
        { name: "nonce", type: "uint128" },
        { name: "deadline", type: "uint32" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "data", type: "bytes" },
      ],
    },
    primaryType: "Execution",
    message: { nonce: 7n, deadline: 1_900_000_000, to: getAddress(to), value, data: "0xa9059cbb" },
  } as const;
}

async function walletClient() {
  const account = await createAccount({ client: memberClient as never, organizationId, signWith: eoa });
  return createWalletClient({ account, chain: mainnet, transport: custom({ request: async () => null }) });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected the signature to be refused");
    },
    (e: unknown) => e as Error,
  );
}

describe("eth.eip_712 in policies", () => {
  it("allows the Execution intent the gas-station policy names, and viem recovers the signature", async () => {
    const typedData = execution(USDC, 0n);
    const signature = await (await walletClient()).signTypedData(typedData);
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(eoa);
  });

  it("denies an Execution to another contract, or one that moves ether", async () => {
    const client = await walletClient();
    for (const typedData of [execution(DAI, 0n), execution(USDC, 1n)]) {
      const error = await failure(client.signTypedData(typedData));
      expect(error.message).toMatch(IMPLICIT_DENIAL);
    }
  });

  it("answers a denial to @turnkey/sdk-server with gRPC code 7", async () => {
    const api = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: memberKey.publicKey,
      apiPrivateKey: memberKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    const request = (to: string) => ({
      signWith: eoa,
      // What viem's wallet client hands @turnkey/viem: the domain type added, then serialized.
      payload: serializeTypedData({
        ...execution(to, 0n),
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
          ...execution(to, 0n).types,
        },
      } as never),
      encoding: "PAYLOAD_ENCODING_EIP712" as const,
      hashFunction: "HASH_FUNCTION_NO_OP" as const,
    });
    expect((await api.signRawPayload(request(USDC))).r).toMatch(/^[0-9a-f]{64}$/);
    const denied = (await failure(api.signRawPayload(request(DAI)))) as Error & { code?: number };
    expect(denied.code).toBe(7);
    // One keyword cannot stand for several documents, so a batch shows none and this policy cannot allow it,
    // even when every document would pass on its own.
    const { payload, encoding, hashFunction } = request(USDC);
    const batch = api.signRawPayloads({ signWith: eoa, payloads: [payload, payload], encoding, hashFunction });
    expect(((await failure(batch)) as Error & { code?: number }).code).toBe(7);
  });

  it("shows the domain, with chain_id as an integer and verifying_contract in lowercase", async () => {
    await addPolicy(root, organizationId, {
      policyName: "no signing for the delegate on chain 10",
      effect: "EFFECT_DENY",
      condition: `eth.eip_712.domain.chain_id == 10 && eth.eip_712.domain.verifying_contract == '${eoa.toLowerCase()}' && eth.eip_712.domain.name == 'TKGasDelegate'`,
    });
    const client = await walletClient();
    const onTen = { ...execution(USDC, 0n), domain: { ...execution(USDC, 0n).domain, chainId: 10 } };
    expect((await failure(client.signTypedData(onTen))).message).toMatch(EXPLICIT_DENIAL);
    // The same intent on chain 1 is still allowed: the deny policy's condition is false there.
    const typedData = execution(USDC, 0n);
    expect(await recoverTypedDataAddress({ ...typedData, signature: await client.signTypedData(typedData) })).toBe(eoa);
  });
});

describe("members a type does not declare", () => {
  it("are signed around, as viem hashes the document, and no policy reads them", async () => {
    const api = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: memberKey.publicKey,
      apiPrivateKey: memberKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    const sign = (doc: ReturnType<typeof execution>, extras: Record<string, unknown>) => {
      // viem's serializeTypedData keeps the domain only when the domain type is given, as its wallet client does.
      const types = { EIP712Domain: getTypesForEIP712Domain({ domain: doc.domain }), ...doc.types };
      const sent = JSON.parse(serializeTypedData({ ...doc, types } as never));
      return api.signRawPayload({
        signWith: eoa,
        payload: JSON.stringify({ ...sent, message: { ...sent.message, ...extras } }),
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      });
    };
    // An undeclared `To` beside the declared `to` signs the declared document, which viem recovers.
    const allowed = execution(USDC, 0n);
    const { r, s, v } = await sign(allowed, { To: DAI, note: "not signed" });
    const signature = `0x${r}${s}${(Number.parseInt(v, 16) + 27).toString(16)}` as `0x${string}`;
    expect(await recoverTypedDataAddress({ ...allowed, signature })).toBe(eoa);
    // An undeclared member cannot stand in for a declared one: the policy reads the declared `to` only.
    const denied = (await failure(sign(execution(DAI, 0n), { to_: USDC }))) as Error & { code?: number };
    expect(denied.code).toBe(7);
  });
});

describe("eth.eip_7702_authorization in policies", () => {
  it("allows an authorization for the delegate a policy names, and denies another", async () => {
    await addPolicy(root, organizationId, {
      policyName: "delegate to the gas station only",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${memberUserId}')`,
      condition: `eth.eip_7702_authorization.address == '${DELEGATE.toLowerCase()}' && eth.eip_7702_authorization.chain_id == 1 && eth.eip_7702_authorization.nonce < 100`,
    });
    const account = await createAccount({ client: memberClient as never, organizationId, signWith: eoa });
    const authorization = await account.signAuthorization!({ address: DELEGATE, chainId: 1, nonce: 3 });
    expect(await recoverAuthorizationAddress({ authorization })).toBe(eoa);
    const error = await failure(account.signAuthorization!({ address: DAI, chainId: 1, nonce: 3 }));
    expect(error.message).toMatch(IMPLICIT_DENIAL);
  });
});
