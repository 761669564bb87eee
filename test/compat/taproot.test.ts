/**
 * Taproot raw payloads (issue 13, item 2): `sign_raw_payload(s)` with a P2TR address signs BIP340 Schnorr by
 * the BIP86-tweaked key, in the `r`/`s` layout @turnkey/bitcoin's `signSchnorr` reads. Checked by bitcoinjs-lib:
 * its own sighashes, its signature checks, and a finalized key-path spend.
 */
import { Transaction } from "@scure/btc-signer";
import { Turnkey, type TurnkeyApiClient } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bitcoin,
  custodianBitcoinSigner,
  ecc,
  taprootOutputKey,
  unsignedPsbt,
  validateSignature,
} from "../support/bitcoin.js";
import { engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let api: TurnkeyApiClient;
let taprootAddress: string;
let segwitAddress: string;
let segwitPublicKey: Uint8Array;
let taprootInternalKey: Uint8Array;
let keyTaprootAddress: string;
let keyPublicKey: Uint8Array;
let privateKeyId: string;

const network = bitcoin.networks.testnet;
const DIGEST = "8d3a1f6a0a5e4c1f9b2e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928";

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  organizationId = fixture.organizationId;
  server = await serve(fixture.engine);
  api = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: fixture.rootKey.publicKey,
    apiPrivateKey: fixture.rootKey.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
  const wallet = await api.createWallet({
    walletName: "Taproot",
    accounts: [
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/86'/1'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR",
      },
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/84'/1'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH",
      },
    ],
  });
  [taprootAddress, segwitAddress] = wallet.addresses as [string, string];
  const publicKeyOf = async (address: string) =>
    Buffer.from((await api.getWalletAccount({ walletId: wallet.walletId, address })).account.publicKey!, "hex");
  segwitPublicKey = await publicKeyOf(segwitAddress);
  // The x-only internal key, as Turnkey's with-bitcoin example puts it in the PSBT input.
  taprootInternalKey = (await publicKeyOf(taprootAddress)).subarray(1);
  const keys = await api.createPrivateKeys({
    privateKeys: [
      {
        privateKeyName: "taproot key",
        curve: "CURVE_SECP256K1",
        privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR", "ADDRESS_FORMAT_COMPRESSED"],
      },
    ],
  });
  const [key] = keys.privateKeys;
  privateKeyId = key!.privateKeyId!;
  keyTaprootAddress = key!.addresses!.find((entry) => entry.format === "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR")!.address!;
  const { privateKey } = await api.getPrivateKey({ privateKeyId });
  keyPublicKey = Buffer.from(privateKey.publicKey, "hex");
});

afterAll(async () => {
  await server.close();
});

/** The Turnkey error an sdk-server call rejects with, and the field its BadRequest detail names. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; field: string | undefined }> {
  const error = (await call.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e,
  )) as { code: number; details?: { "@type"?: string; fieldViolations?: { field: string }[] }[] };
  const badRequest = error.details?.find((d) => d["@type"] === "type.googleapis.com/google.rpc.BadRequest");
  return { code: error.code, field: badRequest?.fieldViolations?.[0]?.field };
}

describe("a P2TR wallet account", () => {
  it("signs a key-path spend, as @turnkey/bitcoin's signer asks, that bitcoinjs-lib verifies and finalizes", async () => {
    const outputKey = taprootOutputKey(taprootAddress);
    const psbt = unsignedPsbt(
      network,
      [
        { address: taprootAddress, value: 60_000n },
        { address: segwitAddress, value: 40_000n },
      ],
      [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", value: 95_000n }],
      new Map([[taprootAddress, taprootInternalKey]]),
    );
    await psbt.signInputAsync(0, custodianBitcoinSigner(api, taprootAddress, outputKey));
    await psbt.signInputAsync(1, custodianBitcoinSigner(api, segwitAddress, segwitPublicKey));

    const tapKeySig = psbt.data.inputs[0]!.tapKeySig;
    expect(tapKeySig).toHaveLength(64);
    expect(psbt.validateSignaturesOfInput(0, validateSignature)).toBe(true);
    expect(psbt.validateSignaturesOfInput(1, validateSignature)).toBe(true);
    psbt.finalizeAllInputs();
    const raw = psbt.extractTransaction().toHex();

    // @scure/btc-signer reads the finished transaction back: the taproot witness is the lone Schnorr signature.
    const parsed = Transaction.fromRaw(Buffer.from(raw, "hex"), { allowUnknownOutputs: true });
    expect(parsed.getInput(0).finalScriptWitness).toEqual([Uint8Array.from(tapKeySig!)]);
  });

  it("signs every payload of sign_raw_payloads with the tweaked key", async () => {
    const payloads = [DIGEST, "00".repeat(32), "ff".repeat(32)];
    const { signatures } = await api.signRawPayloads({
      signWith: taprootAddress,
      payloads,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    const outputKey = taprootOutputKey(taprootAddress);
    expect(signatures).toHaveLength(payloads.length);
    signatures!.forEach((signature, index) => {
      expect(signature.v).toBe("00");
      const bytes = Buffer.from(signature.r + signature.s, "hex");
      expect(ecc.verifySchnorr(Buffer.from(payloads[index]!, "hex"), outputKey, bytes)).toBe(true);
    });
  });

  it("hashes with SHA256 first when asked, and signs the digest with the tweaked key", async () => {
    const message = "taproot over sha256";
    const { r, s } = await api.signRawPayload({
      signWith: taprootAddress,
      payload: message,
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    const digest = bitcoin.crypto.sha256(Buffer.from(message));
    expect(ecc.verifySchnorr(digest, taprootOutputKey(taprootAddress), Buffer.from(r + s, "hex"))).toBe(true);
  });

  it("still signs ECDSA for the wallet's other (P2WPKH) address", async () => {
    const { r, s } = await api.signRawPayload({
      signWith: segwitAddress,
      payload: DIGEST,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(ecc.verify(Buffer.from(DIGEST, "hex"), segwitPublicKey, Buffer.from(r + s, "hex"))).toBe(true);
  });

  it("refuses a digest that is not 32 bytes, and the Ethereum encodings, naming the field", async () => {
    for (const payload of ["ab".repeat(31), "ab".repeat(33)]) {
      expect(
        await refusal(
          api.signRawPayload({
            signWith: taprootAddress,
            payload,
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
          }),
        ),
      ).toEqual({ code: 3, field: "parameters.payload" });
    }
    expect(
      await refusal(
        api.signRawPayloads({
          signWith: taprootAddress,
          payloads: [DIGEST, "ab".repeat(20)],
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        }),
      ),
    ).toEqual({ code: 3, field: "parameters.payloads[1]" });
    expect(
      await refusal(
        api.signRawPayload({
          signWith: taprootAddress,
          payload: JSON.stringify({ address: "0x0000000000000000000000000000000000000001", chainId: "1", nonce: "0" }),
          encoding: "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
          hashFunction: "HASH_FUNCTION_NO_OP",
        }),
      ),
    ).toEqual({ code: 3, field: "parameters.encoding" });
  });
});

describe("a private key with a P2TR address", () => {
  it("signs Schnorr by the tweaked key when named by that address, and ECDSA when named by its id", async () => {
    const request = {
      payload: DIGEST,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    } as const;
    const taproot = await api.signRawPayload({ signWith: keyTaprootAddress, ...request });
    expect(
      ecc.verifySchnorr(
        Buffer.from(DIGEST, "hex"),
        taprootOutputKey(keyTaprootAddress),
        Buffer.from(taproot.r + taproot.s, "hex"),
      ),
    ).toBe(true);
    const byId = await api.signRawPayload({ signWith: privateKeyId, ...request });
    expect(ecc.verify(Buffer.from(DIGEST, "hex"), keyPublicKey, Buffer.from(byId.r + byId.s, "hex"))).toBe(true);
  });
});
