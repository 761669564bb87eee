/**
 * Bitcoin test helpers over bitcoinjs-lib (the independent library that checks what custodian signs): unsigned
 * PSBTs spending made-up previous outputs, and a bitcoinjs signer that asks the HTTP adapter for signatures the
 * way @turnkey/bitcoin's `TurnkeyBitcoinSigner` does.
 *
 * @turnkey/bitcoin is not published to the npm registry (tkhq/sdk `packages/bitcoin`), so its two raw-payload
 * calls are reproduced here through @turnkey/sdk-server, the client it wraps: `sign` and `signSchnorr` both send
 * `sign_raw_payload` with the 32-byte sighash as HEXADECIMAL / NO_OP and join `r + s`.
 */
import ecc from "@bitcoinerlab/secp256k1";
import * as bitcoin from "bitcoinjs-lib";

// bitcoinjs-lib needs an ECC backend for taproot (tweaks, Schnorr checks); @bitcoinerlab/secp256k1 is the
// noble-based one the bitcoinjs project recommends.
bitcoin.initEccLib(ecc);

export { bitcoin, ecc };

/** One previous output a PSBT spends. */
export interface Funding {
  readonly address: string;
  readonly value: bigint;
}

/** What a PSBT pays. */
export interface Payment {
  readonly address: string;
  readonly value: bigint;
}

/** The raw-payload call @turnkey/bitcoin's signer makes, as @turnkey/sdk-server's api client exposes it. */
export interface RawPayloadClient {
  signRawPayload(input: {
    signWith: string;
    payload: string;
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL";
    hashFunction: "HASH_FUNCTION_NO_OP";
  }): Promise<{ r: string; s: string }>;
}

/**
 * An unsigned PSBT spending one made-up output per `funding` entry (each in its own previous transaction, so
 * legacy inputs can carry the whole previous transaction) and paying `payments`. Segwit and taproot inputs
 * carry `witnessUtxo`, legacy ones `nonWitnessUtxo`; a P2TR input names its internal key when `internalKeys`
 * has one for its address.
 */
export function unsignedPsbt(
  network: bitcoin.Network,
  funding: readonly Funding[],
  payments: readonly Payment[],
  internalKeys: ReadonlyMap<string, Uint8Array> = new Map(),
): bitcoin.Psbt {
  const psbt = new bitcoin.Psbt({ network });
  funding.forEach((entry, index) => {
    const previous = new bitcoin.Transaction();
    previous.version = 2;
    // A distinct made-up outpoint per input, so every previous transaction has its own id.
    previous.addInput(new Uint8Array(32).fill(index + 1), 0);
    const script = bitcoin.address.toOutputScript(entry.address, network);
    previous.addOutput(script, entry.value);
    const legacy = script.length === 25; // P2PKH: OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG
    const internalKey = internalKeys.get(entry.address);
    psbt.addInput({
      hash: previous.getId(),
      index: 0,
      sequence: 0xfffffffd,
      ...(legacy ? { nonWitnessUtxo: previous.toBuffer() } : { witnessUtxo: { script, value: entry.value } }),
      ...(internalKey ? { tapInternalKey: internalKey } : {}),
    });
  });
  for (const payment of payments) psbt.addOutput({ address: payment.address, value: payment.value });
  return psbt;
}

/**
 * A bitcoinjs-lib signer for `address` whose signatures come from custodian, as @turnkey/bitcoin's
 * `TurnkeyBitcoinSigner` makes them. `publicKey` is what that signer is given: the compressed key for ECDSA
 * inputs, the address's x-only output key for P2TR.
 */
export function custodianBitcoinSigner(
  client: RawPayloadClient,
  address: string,
  publicKey: Uint8Array,
): bitcoin.SignerAsync {
  const signRaw = async (hash: Uint8Array) => {
    const { r, s } = await client.signRawPayload({
      signWith: address,
      payload: Buffer.from(hash).toString("hex"),
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    return Buffer.from(r + s, "hex");
  };
  return { publicKey, sign: signRaw, signSchnorr: signRaw };
}

/** The x-only output key a P2TR address pays (`OP_1 <key>`). */
export function taprootOutputKey(address: string): Uint8Array {
  return bitcoin.address.fromBech32(address).data;
}

/** bitcoinjs-lib's signature check: ECDSA against the key, or BIP340 Schnorr against the x-only key. */
export function validateSignature(publicKey: Uint8Array, hash: Uint8Array, signature: Uint8Array): boolean {
  return publicKey.length === 32
    ? ecc.verifySchnorr(hash, publicKey, signature)
    : ecc.verify(hash, publicKey, signature);
}
