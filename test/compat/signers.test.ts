/**
 * The official signer packages against the HTTP adapter: @turnkey/viem, @turnkey/ethers, @turnkey/solana,
 * @turnkey/cosmjs and @turnkey/sdk-server, each checked by the chain's own library.
 */
import { Secp256k1, Secp256k1Signature, sha256 } from "@cosmjs/crypto";
import { makeSignBytes } from "@cosmjs/proto-signing";
import { ed25519 } from "@noble/curves/ed25519.js";
import { PublicKey } from "@solana/web3.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyDirectWallet } from "@turnkey/cosmjs";
import { TurnkeySigner as TurnkeyEthersSigner } from "@turnkey/ethers";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { TurnkeySigner as TurnkeySolanaSigner } from "@turnkey/solana";
import { createAccount } from "@turnkey/viem";
import { verifyMessage } from "ethers";
import {
  createWalletClient,
  custom,
  hashMessage,
  recoverAddress,
  recoverMessageAddress,
  recoverTypedDataAddress,
} from "viem";
import { mainnet } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/index.js";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let rootKey: ApiKeyPair;
let client: TurnkeyClient;
// The signer packages pin their own copies of @turnkey/http and sdk-server: the same runtime client, but a
// different type identity, so clients are handed to them through this one cast.
const asSignerClient = (c: unknown) => c as never;
let ethAddress: string;
let solAddress: string;
let cosmosKeyId: string;
let cosmosAddress: string;

beforeAll(async () => {
  // Seeded, so the Cosmos key, and with it each signature, is the same in every run: @cosmjs refuses an `r`
  // with a leading zero byte (its "unpadded" rule), which the wire's 64 hex digits give one key in 256.
  const fixture = await engineWithOrganization({ random: createSeededRandom("signers") });
  ({ organizationId, rootKey } = fixture);
  server = await serve(fixture.engine);
  client = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
  );
  const { activity } = await fixture.root.createWallet({
    organizationId,
    parameters: {
      walletName: "Signers",
      accounts: [ETHEREUM_ACCOUNT, SOLANA_ACCOUNT],
    },
  });
  [ethAddress, solAddress] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [
    string,
    string,
  ];
  const keys = await fixture.root.createPrivateKeys({
    organizationId,
    parameters: {
      privateKeys: [
        {
          privateKeyName: "cosmos",
          curve: "CURVE_SECP256K1",
          privateKeyTags: [],
          addressFormats: ["ADDRESS_FORMAT_COSMOS"],
        },
      ],
    },
  });
  const [key] = (
    keys.activity.result!.createPrivateKeysResultV2 as {
      privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
    }
  ).privateKeys;
  cosmosKeyId = key!.privateKeyId;
  cosmosAddress = key!.addresses[0]!.address;
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("@turnkey/viem", () => {
  it("signs messages and typed data that viem recovers to the account", async () => {
    const account = await createAccount({ client: asSignerClient(client), organizationId, signWith: ethAddress });
    expect(account.address).toBe(ethAddress);
    const message = "hello from viem";
    expect(await recoverMessageAddress({ message, signature: await account.signMessage({ message }) })).toBe(
      ethAddress,
    );
    const typedData = {
      domain: {
        name: "Ether Mail",
        version: "1",
        chainId: 1,
        verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
      },
      types: {
        Person: [{ name: "name", type: "string" }],
        Mail: [
          { name: "from", type: "Person" },
          { name: "contents", type: "string" },
        ],
      },
      primaryType: "Mail",
      message: { from: { name: "Cow" }, contents: "Hello, Bob!" },
    } as const;
    // Through a wallet client, as applications call it: viem adds the EIP712Domain type before the account
    // serializes the document (without it, serializeTypedData drops the domain).
    const walletClient = createWalletClient({
      account,
      chain: mainnet,
      transport: custom({ request: async () => null }),
    });
    const signature = await walletClient.signTypedData(typedData);
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(ethAddress);
  });
});

describe("@turnkey/ethers", () => {
  it("signs a message that ethers verifies", async () => {
    const signer = new TurnkeyEthersSigner({ client: asSignerClient(client), organizationId, signWith: ethAddress });
    expect(await signer.getAddress()).toBe(ethAddress);
    const signature = await signer.signMessage("hello from ethers");
    expect(verifyMessage("hello from ethers", signature)).toBe(ethAddress);
  });
});

describe("@turnkey/solana", () => {
  it("signs a message that verifies under the Solana address", async () => {
    const signer = new TurnkeySolanaSigner({ organizationId, client: asSignerClient(client) });
    const message = new TextEncoder().encode("hello from solana");
    const signature = await signer.signMessage(message, solAddress);
    expect(ed25519.verify(signature, message, new PublicKey(solAddress).toBytes())).toBe(true);
  });
});

describe("@turnkey/cosmjs", () => {
  const signDoc = {
    bodyBytes: new Uint8Array([1, 2, 3]),
    authInfoBytes: new Uint8Array([4, 5]),
    chainId: "cosmoshub-4",
    accountNumber: 7n,
  };

  async function verify(wallet: TurnkeyDirectWallet, signedDigest: (signBytes: Uint8Array) => Uint8Array) {
    const [account] = await wallet.getAccounts();
    expect(account?.address).toBe(cosmosAddress);
    const { signature } = await wallet.signDirect(cosmosAddress, signDoc);
    return Secp256k1.verifySignature(
      Secp256k1Signature.fromFixedLength(Buffer.from(signature.signature, "base64")),
      signedDigest(makeSignBytes(signDoc)),
      account!.pubkey,
    );
  }

  it("signs a sign doc that @cosmjs verifies, with a sdk-server client", async () => {
    const tk = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: rootKey.publicKey,
      apiPrivateKey: rootKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    const wallet = await TurnkeyDirectWallet.init({
      config: { client: asSignerClient(tk), organizationId, signWith: cosmosKeyId },
      prefix: "cosmos",
    });
    // This client path sends sha256(signBytes) with HASH_FUNCTION_NO_OP: a standard Cosmos signature.
    expect(await verify(wallet, (bytes) => sha256(bytes))).toBe(true);
  });

  it("signs exactly what the wire asks with a @turnkey/http client", async () => {
    const wallet = await TurnkeyDirectWallet.init({
      config: { client: asSignerClient(client), organizationId, signWith: cosmosKeyId },
      prefix: "cosmos",
    });
    // @turnkey/cosmjs's TurnkeyClient path sends the already-hashed sign bytes with HASH_FUNCTION_SHA256, so
    // the wire asks for a signature over sha256(sha256(signBytes)); we sign precisely that, as the hosted
    // service would, and the standard verification (single hash) does not hold for that client path.
    expect(await verify(wallet, (bytes) => sha256(sha256(bytes)))).toBe(true);
    expect(await verify(wallet, (bytes) => sha256(bytes))).toBe(false);
  });
});

describe("@turnkey/sdk-server", () => {
  it("signs 100 payloads in one signRawPayloads call", async () => {
    const tk = new Turnkey({
      apiBaseUrl: server.baseUrl,
      apiPublicKey: rootKey.publicKey,
      apiPrivateKey: rootKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    const digests = Array.from({ length: 100 }, (_, i) => hashMessage(`payload ${i}`));
    const { signatures } = await tk.signRawPayloads({
      signWith: ethAddress,
      payloads: digests,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(signatures).toHaveLength(100);
    const recovered = await Promise.all(
      signatures!.map((s, i) =>
        recoverAddress({ hash: digests[i]!, signature: `0x${s.r}${s.s}${s.v === "00" ? "1b" : "1c"}` }),
      ),
    );
    expect(new Set(recovered)).toEqual(new Set([ethAddress]));
  });
});
