/**
 * `sign_transaction` for Solana, Bitcoin and Tron through the HTTP adapter, driven by the official clients as
 * applications call them and checked by each chain's own library: @turnkey/solana with @solana/web3.js, the
 * PSBT flow of @turnkey/bitcoin with bitcoinjs-lib, and Turnkey's with-tron flow with tronweb.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey, type TurnkeyApiClient } from "@turnkey/sdk-server";
import { TurnkeySigner as TurnkeySolanaSigner } from "@turnkey/solana";
import { TronWeb, Trx, utils as tronUtils } from "tronweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitcoin, unsignedPsbt, validateSignature } from "../support/bitcoin.js";
import { engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let api: TurnkeyApiClient;
let httpClient: TurnkeyClient;
let solAddress: string;
let tronAddress: string;
let p2wpkhAddress: string;
let p2trAddress: string;
let p2trInternalKey: Uint8Array;
let keyP2wpkh: string;
let keyP2tr: string;
let keyInternalKey: Uint8Array;

// The signer packages pin their own copies of @turnkey/http and sdk-server: the same runtime client, but a
// different type identity, so clients are handed to them through this one cast.
const asSignerClient = (c: unknown) => c as never;
const BLOCKHASH = "GZSq3KvoFVhE22CQsaWSAxBoAvRiZSs7xVNa6yPecMUu";
const network = bitcoin.networks.testnet;
const PAY_TO = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
const account = (curve: string, path: string, addressFormat: string) =>
  ({ curve, pathFormat: "PATH_FORMAT_BIP32", path, addressFormat }) as never;

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  organizationId = fixture.organizationId;
  server = await serve(fixture.engine);
  const credentials = { apiPublicKey: fixture.rootKey.publicKey, apiPrivateKey: fixture.rootKey.privateKey };
  api = new Turnkey({ apiBaseUrl: server.baseUrl, ...credentials, defaultOrganizationId: organizationId }).apiClient();
  httpClient = new TurnkeyClient({ baseUrl: server.baseUrl }, new ApiKeyStamper(credentials));
  const wallet = await api.createWallet({
    walletName: "Chains",
    accounts: [
      account("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"),
      account("CURVE_SECP256K1", "m/44'/195'/0'/0/0", "ADDRESS_FORMAT_TRON"),
      account("CURVE_SECP256K1", "m/84'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"),
      account("CURVE_SECP256K1", "m/86'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"),
    ],
  });
  [solAddress, tronAddress, p2wpkhAddress, p2trAddress] = wallet.addresses as [string, string, string, string];
  const { account: taproot } = await api.getWalletAccount({ walletId: wallet.walletId, address: p2trAddress });
  p2trInternalKey = Buffer.from(taproot.publicKey!, "hex").subarray(1);
  const keys = await api.createPrivateKeys({
    privateKeys: [
      {
        privateKeyName: "bitcoin key",
        curve: "CURVE_SECP256K1",
        privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"],
      },
    ],
  });
  const [key] = keys.privateKeys;
  [keyP2wpkh, keyP2tr] = key!.addresses!.map((entry) => entry.address!) as [string, string];
  const { privateKey } = await api.getPrivateKey({ privateKeyId: key!.privateKeyId! });
  keyInternalKey = Buffer.from(privateKey.publicKey, "hex").subarray(1);
});

afterAll(async () => {
  expect(server.errors).toEqual([]);
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

function legacyTransfer(lamports: number, feePayer = new PublicKey(solAddress)) {
  const from = new PublicKey(solAddress);
  const tx = new Transaction().add(
    SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports }),
  );
  tx.recentBlockhash = BLOCKHASH;
  tx.feePayer = feePayer;
  return tx;
}

function v0Transfer(lamports: number, tables: AddressLookupTableAccount[] = []) {
  const from = new PublicKey(solAddress);
  const message = new TransactionMessage({
    payerKey: from,
    recentBlockhash: BLOCKHASH,
    instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports })],
  }).compileToV0Message(tables);
  return new VersionedTransaction(message);
}

const verifiesV0 = (tx: VersionedTransaction, index = 0) =>
  ed25519.verify(tx.signatures[index]!, tx.message.serialize(), new PublicKey(solAddress).toBytes());

describe("@turnkey/solana", () => {
  for (const [name, client] of [
    ["@turnkey/http", () => httpClient],
    ["@turnkey/sdk-server", () => api],
  ] as const) {
    it(`signTransaction (${name}) signs legacy and v0 transfers that web3.js verifies`, async () => {
      const signer = new TurnkeySolanaSigner({ organizationId, client: asSignerClient(client()) });
      const legacy = (await signer.signTransaction(legacyTransfer(1000), solAddress)) as Transaction;
      expect(legacy.verifySignatures()).toBe(true);
      const versioned = (await signer.signTransaction(v0Transfer(2000), solAddress)) as VersionedTransaction;
      expect(verifiesV0(versioned)).toBe(true);
    });
  }

  it("signTransaction signs a v0 transaction with an address lookup table", async () => {
    const recipient = Keypair.generate().publicKey;
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        deactivationSlot: BigInt("18446744073709551615"),
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [recipient],
      },
    });
    const from = new PublicKey(solAddress);
    const message = new TransactionMessage({
      payerKey: from,
      recentBlockhash: BLOCKHASH,
      instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: 5 })],
    }).compileToV0Message([table]);
    expect(message.addressTableLookups).toHaveLength(1);
    const signer = new TurnkeySolanaSigner({ organizationId, client: asSignerClient(api) });
    const signed = (await signer.signTransaction(
      new VersionedTransaction(message),
      solAddress,
    )) as VersionedTransaction;
    expect(verifiesV0(signed)).toBe(true);
    expect(signed.message.addressTableLookups).toEqual(message.addressTableLookups);
  });

  it("adds the account's signature beside the fee payer's, which stays as it was", async () => {
    const payer = Keypair.generate();
    const tx = legacyTransfer(3000, payer.publicKey);
    tx.partialSign(payer);
    const signer = new TurnkeySolanaSigner({ organizationId, client: asSignerClient(api) });
    const signed = (await signer.signTransaction(tx, solAddress)) as Transaction;
    expect(signed.signatures[0]!.signature).toEqual(tx.signatures[0]!.signature);
    expect(signed.verifySignatures()).toBe(true);
  });

  it("signAllTransactions signs legacy and v0 transfers that web3.js verifies", async () => {
    const signer = new TurnkeySolanaSigner({ organizationId, client: asSignerClient(httpClient) });
    const [legacy, versioned] = await signer.signAllTransactions([legacyTransfer(10), v0Transfer(20)], solAddress);
    expect((legacy as Transaction).verifySignatures()).toBe(true);
    expect(verifiesV0(versioned as VersionedTransaction)).toBe(true);
  });

  it("refuses malformed transactions and a key that is not a signer, naming the field", async () => {
    const hex = Buffer.from(legacyTransfer(1).serialize({ requireAllSignatures: false })).toString("hex");
    for (const unsignedTransaction of ["not hex", hex.slice(0, 100), Buffer.from(hex, "hex").toString("base64")]) {
      expect(
        await refusal(
          api.signTransaction({ signWith: solAddress, unsignedTransaction, type: "TRANSACTION_TYPE_SOLANA" }),
        ),
      ).toEqual({ code: 3, field: "parameters.unsignedTransaction" });
    }
    const foreign = legacyTransfer(1, Keypair.generate().publicKey);
    foreign.instructions[0]!.keys[0]!.pubkey = foreign.feePayer!;
    const foreignHex = Buffer.from(foreign.serialize({ requireAllSignatures: false })).toString("hex");
    expect(
      await refusal(
        api.signTransaction({ signWith: solAddress, unsignedTransaction: foreignHex, type: "TRANSACTION_TYPE_SOLANA" }),
      ),
    ).toEqual({ code: 3, field: "parameters.signWith" });
  });
});

describe("Bitcoin PSBTs, as @turnkey/bitcoin's signTransaction sends them", () => {
  // TurnkeyBitcoinSigner.signTransaction (tkhq/sdk packages/bitcoin, not published to npm) calls the api
  // client's signTransaction with the PSBT in hex and TRANSACTION_TYPE_BITCOIN, as here.
  const signPsbt = async (signWith: string, psbt: bitcoin.Psbt) => {
    const { signedTransaction } = await api.signTransaction({
      signWith,
      unsignedTransaction: psbt.toHex(),
      type: "TRANSACTION_TYPE_BITCOIN",
    });
    return bitcoin.Psbt.fromHex(signedTransaction, { network });
  };

  it("signs the P2WPKH and P2TR inputs of one key in one call; bitcoinjs-lib verifies and finalizes", async () => {
    const psbt = unsignedPsbt(
      network,
      [
        { address: keyP2wpkh, value: 30_000n },
        { address: keyP2tr, value: 70_000n },
      ],
      [{ address: PAY_TO, value: 99_000n }],
      new Map([[keyP2tr, keyInternalKey]]),
    );
    const signed = await signPsbt(keyP2wpkh, psbt);
    expect(signed.validateSignaturesOfInput(0, validateSignature)).toBe(true);
    expect(signed.validateSignaturesOfInput(1, validateSignature)).toBe(true);
    signed.finalizeAllInputs();
    const tx = signed.extractTransaction();
    expect(tx.ins[1]!.witness).toHaveLength(1);
  });

  it("signs each account's input, leaving the other's for its own call", async () => {
    const psbt = unsignedPsbt(
      network,
      [
        { address: p2wpkhAddress, value: 30_000n },
        { address: p2trAddress, value: 70_000n },
      ],
      [{ address: PAY_TO, value: 99_000n }],
      new Map([[p2trAddress, p2trInternalKey]]),
    );
    const first = await signPsbt(p2wpkhAddress, psbt);
    expect(first.data.inputs[0]!.partialSig).toHaveLength(1);
    expect(first.data.inputs[1]!.tapKeySig).toBeUndefined();
    const both = await signPsbt(p2trAddress, first);
    expect(both.validateSignaturesOfInput(0, validateSignature)).toBe(true);
    expect(both.validateSignaturesOfInput(1, validateSignature)).toBe(true);
    both.finalizeAllInputs();
    expect(both.extractTransaction().outs[0]!.value).toBe(99_000n);
  });

  it("refuses a PSBT with no input of the key, and one that is not a PSBT, naming the field", async () => {
    const other = unsignedPsbt(network, [{ address: PAY_TO, value: 5_000n }], [{ address: PAY_TO, value: 4_000n }]);
    expect(
      await refusal(
        api.signTransaction({
          signWith: p2trAddress,
          unsignedTransaction: other.toHex(),
          type: "TRANSACTION_TYPE_BITCOIN",
        }),
      ),
    ).toEqual({ code: 3, field: "parameters.signWith" });
    for (const unsignedTransaction of ["%%%", other.toHex().slice(0, 40), Buffer.from("garbage").toString("base64")]) {
      expect(
        await refusal(
          api.signTransaction({ signWith: p2trAddress, unsignedTransaction, type: "TRANSACTION_TYPE_BITCOIN" }),
        ),
      ).toEqual({ code: 3, field: "parameters.unsignedTransaction" });
    }
  });
});

describe("Tron, as Turnkey's with-tron example signs", () => {
  it("signs a TRX transfer built with tronweb that tronweb recovers to the account", async () => {
    const raw_data = {
      contract: [
        {
          parameter: {
            value: {
              owner_address: TronWeb.address.toHex(tronAddress),
              to_address: TronWeb.address.toHex("TY1jfzP3s94oSzYECC89EFn17iA8S4imVZ"),
              amount: 100,
            },
            type_url: "type.googleapis.com/protocol.TransferContract",
          },
          type: "TransferContract",
        },
      ],
      ref_block_bytes: "4c1a",
      ref_block_hash: "a3f1c2d4e5b6a7f8",
      expiration: 1773600060000,
      timestamp: 1773600000000,
    };
    const pb = tronUtils.transaction.txJsonToPb({ visible: false, raw_data } as never);
    const raw_data_hex = tronUtils.transaction.txPbToRawDataHex(pb);
    const { signedTransaction } = await api.signTransaction({
      signWith: tronAddress,
      unsignedTransaction: raw_data_hex,
      type: "TRANSACTION_TYPE_TRON",
    });
    // signedTransaction is the protocol.Transaction sendHexTransaction broadcasts: raw_data, then the signature.
    const proto = (
      globalThis as unknown as {
        TronWebProto: {
          Transaction: { deserializeBinary(bytes: Uint8Array): { getSignatureList_asU8(): Uint8Array[] } };
        };
      }
    ).TronWebProto;
    const [signature] = proto.Transaction.deserializeBinary(
      Buffer.from(signedTransaction, "hex"),
    ).getSignatureList_asU8();
    const txID = tronUtils.transaction.txPbToTxID(pb).replace(/^0x/, "");
    const recovered = Trx.ecRecover({
      visible: false,
      txID,
      raw_data,
      raw_data_hex,
      signature: [Buffer.from(signature!).toString("hex")],
    } as never);
    expect(recovered).toBe(tronAddress);
  });

  it("refuses what is not a raw_data_hex, naming the field", async () => {
    expect(
      await refusal(
        api.signTransaction({ signWith: tronAddress, unsignedTransaction: "0a02", type: "TRANSACTION_TYPE_TRON" }),
      ),
    ).toEqual({ code: 3, field: "parameters.unsignedTransaction" });
  });
});

describe("TRANSACTION_TYPE_TEMPO", () => {
  it("is answered UNIMPLEMENTED, naming the type", async () => {
    const error = (await api
      .signTransaction({ signWith: tronAddress, unsignedTransaction: "76c0", type: "TRANSACTION_TYPE_TEMPO" })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; message: string };
    expect(error.code).toBe(12);
    expect(error.message).toMatch(/TRANSACTION_TYPE_TEMPO/);
  });
});
