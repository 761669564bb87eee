/**
 * The Bitcoin codec against bitcoinjs-lib: PSBTs built by bitcoinjs, signed by the codec with a prepared signer,
 * checked by bitcoinjs (its own sighashes and signature checks, finalization, extraction).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { Address, OutScript, Script, TEST_NETWORK, Transaction } from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { prepareSigner } from "../../../src/crypto/sign/index.js";
import { transactionCodec } from "../../../src/crypto/tx/index.js";
import { bitcoin, ecc, unsignedPsbt, validateSignature } from "../../support/bitcoin.js";
import { custodyErrorOf, custodyErrorOfAsync } from "../sign/fixtures.js";

const network = bitcoin.networks.testnet;
const FIELD = "parameters.unsignedTransaction";
const SIGN_WITH = "parameters.signWith";
const codec = transactionCodec("TRANSACTION_TYPE_BITCOIN", "parameters.type");

function keyOf(byte: number) {
  const privateKey = new Uint8Array(32).fill(byte);
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const xOnly = publicKey.subarray(1);
  return {
    privateKey,
    publicKey,
    xOnly,
    p2wpkh: bitcoin.payments.p2wpkh({ pubkey: publicKey, network }).address!,
    p2shP2wpkh: bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey: publicKey, network }), network })
      .address!,
    p2pkh: bitcoin.payments.p2pkh({ pubkey: publicKey, network }).address!,
    p2tr: bitcoin.payments.p2tr({ internalPubkey: xOnly, network }).address!,
  };
}

const ours = keyOf(0x21);
const theirs = keyOf(0x22);
const signingKey = (address?: string) => ({
  signer: prepareSigner("CURVE_SECP256K1", ours.privateKey),
  publicKey: ours.publicKey,
  ...(address === undefined ? {} : { address }),
});
const PAY_TO = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";

function everyKindPsbt() {
  return unsignedPsbt(
    network,
    [
      { address: ours.p2wpkh, value: 10_000n },
      { address: ours.p2shP2wpkh, value: 20_000n },
      { address: ours.p2pkh, value: 30_000n },
      { address: ours.p2tr, value: 40_000n },
      { address: theirs.p2wpkh, value: 50_000n },
    ],
    [
      { address: PAY_TO, value: 120_000n },
      { address: ours.p2tr, value: 27_500n },
    ],
    new Map([[ours.p2tr, ours.xOnly]]),
  );
}

describe("TRANSACTION_TYPE_BITCOIN", () => {
  it("signs every input of the key (P2WPKH, P2SH-P2WPKH, P2PKH, P2TR) and leaves the others", async () => {
    const psbt = everyKindPsbt();
    const signed = bitcoin.Psbt.fromHex(
      await codec.parse(psbt.toHex(), FIELD).sign(signingKey(ours.p2wpkh), SIGN_WITH),
      {
        network,
      },
    );
    for (const index of [0, 1, 2, 3]) expect(signed.validateSignaturesOfInput(index, validateSignature)).toBe(true);
    expect(signed.data.inputs[3]!.tapKeySig).toHaveLength(64);
    expect(signed.data.inputs[4]!.partialSig).toBeUndefined();
    expect(signed.data.inputs[4]!.tapKeySig).toBeUndefined();
    // The other party signs its own input; then bitcoinjs finalizes and extracts the whole transaction.
    signed.signInput(4, {
      publicKey: theirs.publicKey,
      sign: (hash: Uint8Array) => ecc.sign(hash, theirs.privateKey),
    });
    signed.finalizeAllInputs();
    const tx = signed.extractTransaction();
    expect(tx.ins.map((input) => input.index)).toEqual(psbt.txInputs.map((input) => input.index));
    expect(tx.outs.map((output) => output.value)).toEqual([120_000n, 27_500n]);
  });

  it("answers a base64 PSBT in base64, and accepts hex with 0x", async () => {
    const psbt = everyKindPsbt();
    const fromBase64 = await codec.parse(psbt.toBase64(), FIELD).sign(signingKey(), SIGN_WITH);
    expect(bitcoin.Psbt.fromBase64(fromBase64).validateSignaturesOfInput(3, validateSignature)).toBe(true);
    const fromHex = await codec.parse(`0x${psbt.toHex()}`, FIELD).sign(signingKey(), SIGN_WITH);
    expect(fromHex).toMatch(/^70736274ff[0-9a-f]+$/);
  });

  it("signs with the sighash type the input asks for", async () => {
    const psbt = unsignedPsbt(
      network,
      [
        { address: ours.p2wpkh, value: 10_000n },
        { address: ours.p2tr, value: 10_000n },
      ],
      [{ address: PAY_TO, value: 19_000n }],
    );
    psbt.updateInput(0, { sighashType: bitcoin.Transaction.SIGHASH_ALL | bitcoin.Transaction.SIGHASH_ANYONECANPAY });
    psbt.updateInput(1, { sighashType: bitcoin.Transaction.SIGHASH_NONE, tapInternalKey: ours.xOnly });
    const signed = bitcoin.Psbt.fromHex(await codec.parse(psbt.toHex(), FIELD).sign(signingKey(), SIGN_WITH));
    expect(signed.validateSignaturesOfInput(0, validateSignature)).toBe(true);
    expect(signed.validateSignaturesOfInput(1, validateSignature)).toBe(true);
    expect(signed.data.inputs[0]!.partialSig![0]!.signature.at(-1)).toBe(0x81);
    expect(signed.data.inputs[1]!.tapKeySig!.at(-1)).toBe(0x02);
  });

  it("shows policies the transaction as bitcoinjs-lib reads it", () => {
    const psbt = everyKindPsbt();
    const data = codec.parse(psbt.toHex(), FIELD).policyData({
      interfaces: new Map(),
      signer: { publicKey: ours.publicKey, address: ours.p2tr },
    }) as { bitcoin: { tx: Record<string, unknown> } };
    const scripts = psbt.txOutputs.map((output) => Buffer.from(output.script).toString("hex"));
    expect(data.bitcoin.tx).toEqual({
      version: "2",
      inputs: psbt.txInputs.map((input) => ({
        tx_id: Buffer.from(input.hash).reverse().toString("hex"),
        vout: BigInt(input.index),
        sequence: 0xfffffffdn,
      })),
      outputs: [
        {
          value: 120_000n,
          script_pubkey: scripts[0],
          address: PAY_TO,
          address_type: "p2wpkh",
        },
        {
          value: 27_500n,
          script_pubkey: scripts[1],
          address: ours.p2tr,
          address_type: "p2tr",
        },
      ],
      locktime: { amount: 0n, type: "Blocks" },
      fee: 150_000n - 147_500n,
    });
  });

  it("spells output addresses for the signer's network, mainnet for a key id", () => {
    const psbt = unsignedPsbt(network, [{ address: ours.p2wpkh, value: 1_000n }], [{ address: PAY_TO, value: 900n }]);
    const outputAddress = (address?: string) => {
      const data = codec.parse(psbt.toHex(), FIELD).policyData({
        interfaces: new Map(),
        signer: { publicKey: ours.publicKey, ...(address ? { address } : {}) },
      }) as { bitcoin: { tx: { outputs: { address: string }[] } } };
      return data.bitcoin.tx.outputs[0]!.address;
    };
    expect(outputAddress(ours.p2wpkh)).toBe(PAY_TO);
    const mainnet = bitcoin.address.fromBech32(PAY_TO);
    expect(outputAddress()).toBe(bitcoin.address.toBech32(mainnet.data, mainnet.version, "bc"));
  });

  it("spells every output script's address as btc-signer does, and none for scripts without one", () => {
    const hash20 = new Uint8Array(20).fill(0x11);
    const hash32 = new Uint8Array(32).fill(0x22);
    const compressed = secp256k1.getPublicKey(new Uint8Array(32).fill(4), true);
    // No x coordinate of the curve is 5 (5³ + 7 = 132 is not a square modulo p).
    const offCurve = new Uint8Array(32);
    offCurve[31] = 5;
    const scripts = [
      OutScript.encode({ type: "pkh", hash: hash20 }),
      OutScript.encode({ type: "sh", hash: hash20 }),
      OutScript.encode({ type: "wpkh", hash: hash20 }),
      OutScript.encode({ type: "wsh", hash: hash32 }),
      OutScript.encode({ type: "tr", pubkey: ours.xOnly }),
      Script.encode([1, offCurve]),
      OutScript.encode({ type: "ms", m: 2, pubkeys: [compressed, ours.publicKey] }),
      OutScript.encode({ type: "pk", pubkey: compressed }),
      Script.encode(["RETURN", new Uint8Array(8)]),
      Script.encode([2, hash32]),
      Uint8Array.of(0x00, 0x14, 0x11),
    ];
    const tx = new Transaction({ allowUnknownOutputs: true, disableScriptCheck: true });
    tx.addInput({ txid: hash32, index: 0, witnessUtxo: { script: scripts[2]!, amount: 1_000n } });
    for (const script of scripts) tx.addOutput({ script, amount: 1n });
    const data = codec.parse(Buffer.from(tx.toPSBT()).toString("hex"), FIELD).policyData({
      interfaces: new Map(),
      signer: { publicKey: ours.publicKey, address: ours.p2wpkh },
    }) as { bitcoin: { tx: { outputs: { address: string; address_type: string }[] } } };
    const expected = scripts.map((script) => {
      let decoded: { type: string } | undefined;
      try {
        decoded = OutScript.decode(script);
      } catch {
        decoded = undefined;
      }
      if (!decoded || !["pkh", "sh", "wpkh", "wsh", "tr"].includes(decoded.type)) {
        return { address: "", address_type: "" };
      }
      return {
        address: Address(TEST_NETWORK).encode(decoded as Parameters<ReturnType<typeof Address>["encode"]>[0]),
        address_type: `p2${decoded.type}`,
      };
    });
    expect(data.bitcoin.tx.outputs.map(({ address, address_type }) => ({ address, address_type }))).toEqual(expected);
    expect(expected.filter((output) => output.address !== "")).toHaveLength(5);
  });

  it("refuses a PSBT with no input of the key, naming signWith", async () => {
    const psbt = unsignedPsbt(network, [{ address: theirs.p2tr, value: 5_000n }], [{ address: PAY_TO, value: 4_000n }]);
    const error = await custodyErrorOfAsync(() => codec.parse(psbt.toHex(), FIELD).sign(signingKey(), SIGN_WITH));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.details.field).toBe(SIGN_WITH);
  });

  it("refuses an Ed25519 key, naming signWith", async () => {
    const key = { signer: prepareSigner("CURVE_ED25519", new Uint8Array(32).fill(7)), publicKey: new Uint8Array(32) };
    const error = await custodyErrorOfAsync(() => codec.parse(everyKindPsbt().toHex(), FIELD).sign(key, SIGN_WITH));
    expect(error.details.field).toBe(SIGN_WITH);
  });

  it("refuses what is not a PSBT, naming the transaction", () => {
    const hex = everyKindPsbt().toHex();
    for (const garbage of [
      "zz not a psbt",
      "%%%%",
      "abc",
      "0200000001",
      Buffer.from("not a psbt at all").toString("base64"),
      hex.slice(0, hex.length / 2),
      `${hex.slice(0, 10)}00${hex.slice(12)}`,
    ]) {
      const error = custodyErrorOf(() => codec.parse(garbage, FIELD));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe(FIELD);
    }
  });

  it("refuses inputs of the key it cannot sign, naming the transaction", async () => {
    const single = unsignedPsbt(
      network,
      [
        { address: ours.p2wpkh, value: 10_000n },
        { address: ours.p2wpkh, value: 10_000n },
      ],
      [{ address: PAY_TO, value: 19_000n }],
    );
    single.updateInput(1, { sighashType: bitcoin.Transaction.SIGHASH_SINGLE });
    const taprootWithoutPrevout = unsignedPsbt(
      network,
      [
        { address: ours.p2tr, value: 10_000n },
        { address: theirs.p2pkh, value: 10_000n },
      ],
      [{ address: PAY_TO, value: 19_000n }],
    );
    // The foreign legacy input without its previous transaction: the taproot sighash cannot be computed.
    const bare = bitcoin.Psbt.fromHex(taprootWithoutPrevout.toHex());
    const stripped = new bitcoin.Psbt({ network });
    stripped.addInput({ ...bare.txInputs[0]!, witnessUtxo: bare.data.inputs[0]!.witnessUtxo! });
    stripped.addInput({ ...bare.txInputs[1]! });
    stripped.addOutput({ address: PAY_TO, value: 19_000n });
    for (const psbt of [single, stripped]) {
      const error = await custodyErrorOfAsync(() => codec.parse(psbt.toHex(), FIELD).sign(signingKey(), SIGN_WITH));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe(FIELD);
    }
  });
});
