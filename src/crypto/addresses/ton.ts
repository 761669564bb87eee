/**
 * TON wallet addresses (`ADDRESS_FORMAT_TON_V3R2`, `ADDRESS_FORMAT_TON_V4R2`): the account id is the
 * representation hash of the wallet contract's StateInit cell, and custodian prints it user-friendly,
 * url-safe, bounceable, mainnet, workchain 0 (`EQ…`, docs/spec/addresses.md §5, decision 3).
 *
 * Only the few cells involved are hashed here: the data cell (seqno 0, wallet id, key, and for v4r2 an
 * empty plugin dictionary) and the StateInit cell referencing the published wallet code, whose hash and
 * depth are constants. Tests check the whole against @ton/ton's `WalletContractV3R2`/`WalletContractV4`.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, hexToBytes } from "../bytes.js";
import { formatTonFriendlyAddress } from "./ton-address.js";

/** The TON wallet contracts custodian derives addresses for. */
export type TonWalletVersion = "V3R2" | "V4R2";

/** Wallet id of @ton/ton's wallets on workchain 0 (698983191 + workchain), which Turnkey's TON example uses. */
export const TON_DEFAULT_WALLET_ID = 698983191;

/** A cell as seen from its parent: the representation hash and depth. */
interface CellRef {
  readonly hash: Uint8Array;
  readonly depth: number;
}

/** Published code cells of the wallet contracts (@ton/ton's `WalletContractV3R2`, `WalletContractV4`). */
export const TON_WALLET_CODE: Readonly<Record<TonWalletVersion, CellRef>> = {
  V3R2: { hash: hexToBytes("84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599"), depth: 0 },
  V4R2: { hash: hexToBytes("feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0"), depth: 7 },
};

/**
 * Representation hash of an ordinary cell (TVM whitepaper 3.1.4): descriptors d1 = number of references,
 * d2 = ⌈bits/8⌉ + ⌊bits/8⌋, the data padded with a completion bit, then each reference's depth
 * (2 bytes, big-endian) and hash. `data` holds `bitLength` bits, left-aligned, zero after them.
 */
function ordinaryCell(data: Uint8Array, bitLength: number, refs: readonly CellRef[]): CellRef {
  const padded = data.slice(0, Math.ceil(bitLength / 8));
  if (bitLength % 8 !== 0) padded[bitLength >> 3] = (padded[bitLength >> 3] as number) | (0x80 >> (bitLength % 8));
  const depths = refs.map((ref) => Uint8Array.of(ref.depth >> 8, ref.depth & 0xff));
  const descriptors = Uint8Array.of(refs.length, Math.floor(bitLength / 8) + Math.ceil(bitLength / 8));
  return {
    hash: sha256(concatBytes(descriptors, padded, ...depths, ...refs.map((ref) => ref.hash))),
    depth: refs.length === 0 ? 0 : 1 + Math.max(...refs.map((ref) => ref.depth)),
  };
}

/** The wallet's persistent data: seqno:uint32 = 0, wallet_id:uint32, public_key:bits256 (+ one 0 bit on v4r2). */
function walletData(version: TonWalletVersion, publicKey: Uint8Array): CellRef {
  const data = new Uint8Array(41);
  new DataView(data.buffer).setUint32(4, TON_DEFAULT_WALLET_ID, false);
  data.set(publicKey, 8);
  // v4r2 appends `plugins:(HashmapE 256 ...)` empty, a single 0 bit, already zero in `data`.
  return ordinaryCell(data, version === "V4R2" ? 321 : 320, []);
}

/** StateInit with only code and data present: bits `0 0 1 1 0` (split_depth, special, code, data, library). */
const STATE_INIT_BITS = Uint8Array.of(0b0011_0000);

/** The 32-byte account id (StateInit hash) of the wallet contract of `publicKey` (32-byte ed25519). */
export function tonWalletAccountId(version: TonWalletVersion, publicKey: Uint8Array): Uint8Array {
  return ordinaryCell(STATE_INIT_BITS, 5, [TON_WALLET_CODE[version], walletData(version, publicKey)]).hash;
}

/** The wallet address of `publicKey`: workchain 0, bounceable, url-safe, mainnet (`EQ…`). */
export function tonWalletAddress(version: TonWalletVersion, publicKey: Uint8Array): string {
  return formatTonFriendlyAddress(
    { workchain: 0, hash: tonWalletAccountId(version, publicKey) },
    { bounceable: true, testOnly: false },
  );
}
