/**
 * TON address notations (TEP-2): the raw form `<workchain>:<64 hex>` and the user-friendly form, 36 bytes
 * in base64 (url-safe or standard alphabet): flags tag, int8 workchain, 32-byte account id,
 * CRC-16/XMODEM big-endian of the first 34 bytes.
 *
 * @module
 */
import { base64, base64url } from "@scure/base";
import { bytesToHex, concatBytes, hexToBytes } from "../bytes.js";
import { crc16Xmodem } from "./crc16.js";

/** A TON account: its workchain and 32-byte account id, whatever the notation. */
export interface TonAccount {
  readonly workchain: number;
  readonly hash: Uint8Array;
}

/** Flags of the user-friendly form. */
export interface TonFriendlyFlags {
  /** `0x11` tag (bounceable, `EQ…`) rather than `0x51` (`UQ…`). */
  bounceable: boolean;
  /** Adds `0x80` to the tag (`kQ…`/`0Q…`). */
  testOnly: boolean;
}

const BOUNCEABLE_TAG = 0x11;
const NON_BOUNCEABLE_TAG = 0x51;
const TEST_ONLY_FLAG = 0x80;
const FRIENDLY_BYTES = 36;
const RAW = /^(-?(?:0|[1-9][0-9]{0,9})):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/** The user-friendly, url-safe form of an account (the workchain must fit in an int8). */
export function formatTonFriendlyAddress(account: TonAccount, flags: TonFriendlyFlags): string {
  const tag = (flags.bounceable ? BOUNCEABLE_TAG : NON_BOUNCEABLE_TAG) | (flags.testOnly ? TEST_ONLY_FLAG : 0);
  const body = concatBytes(Uint8Array.of(tag, account.workchain & 0xff), account.hash);
  const crc = crc16Xmodem(body);
  return base64url.encode(concatBytes(body, Uint8Array.of(crc >> 8, crc & 0xff)));
}

/** The raw form `<workchain>:<lowercase hex>`. */
export function formatTonRawAddress(account: TonAccount): string {
  return `${account.workchain}:${bytesToHex(account.hash)}`;
}

function parseFriendly(address: string): TonAccount | undefined {
  if (!FRIENDLY.test(address)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = /[-_]/.test(address) ? base64url.decode(address) : base64.decode(address);
  } catch {
    return undefined;
  }
  if (bytes.length !== FRIENDLY_BYTES) return undefined;
  const tag = (bytes[0] as number) & ~TEST_ONLY_FLAG;
  if (tag !== BOUNCEABLE_TAG && tag !== NON_BOUNCEABLE_TAG) return undefined;
  const crc = crc16Xmodem(bytes.subarray(0, 34));
  if (bytes[34] !== crc >> 8 || bytes[35] !== (crc & 0xff)) return undefined;
  return { workchain: ((bytes[1] as number) << 24) >> 24, hash: bytes.slice(2, 34) };
}

/**
 * The account an address names, from either notation (any flags, either base64 alphabet), or
 * `undefined` when `address` is not a TON address.
 */
export function parseTonAddress(address: string): TonAccount | undefined {
  const raw = RAW.exec(address);
  if (raw !== null) {
    const workchain = Number(raw[1]);
    if (workchain < -(2 ** 31) || workchain >= 2 ** 31) return undefined;
    return { workchain, hash: hexToBytes((raw[2] as string).toLowerCase()) };
  }
  return parseFriendly(address);
}
