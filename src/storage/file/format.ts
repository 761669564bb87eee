/**
 * The on-disk framing shared by journal segments and snapshots.
 *
 * A file starts with a 16-byte header: an 8-byte ASCII magic naming the file kind, the format version
 * (u32 LE) and a kind-specific number (u32 LE: the segment number of a journal segment, 0 for a snapshot).
 * Frames follow, each `marker(4) | length(u32 LE) | crc32(u32 LE) | payload(length)`, where the CRC covers
 * the length bytes and the payload and the payload is UTF-8 JSON. The marker holds 0xFE and 0xFF, bytes
 * that never occur in UTF-8, so after a damaged frame the next real frame start can be found by searching
 * for the marker instead of trying every byte offset.
 *
 * @module
 */
import { crc32 } from "node:zlib";
import { CustodyError } from "../../common/errors.js";

/** The format version this code writes. Files with a higher version are refused, lower ones would be migrated. */
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 16;
export const FRAME_OVERHEAD = 12;

const FRAME_MARKER = Buffer.from([0xfe, 0xc5, 0x7d, 0xff]);

/** The two file kinds and their magic. */
export const JOURNAL_MAGIC = "CUSTJRNL";
export const SNAPSHOT_MAGIC = "CUSTSNAP";

/** File names inside a store directory. */
export const FILES = {
  snapshot: "snapshot",
  snapshotTemp: "snapshot.tmp",
  lock: "LOCK",
  segment: (n: number) => `journal-${String(n).padStart(10, "0")}.log`,
  segmentPattern: /^journal-(\d{10})\.log$/,
} as const;

/** Encodes a file header. */
export function encodeHeader(magic: string, number: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(magic, 0, 8, "latin1");
  header.writeUInt32LE(FORMAT_VERSION, 8);
  header.writeUInt32LE(number, 12);
  return header;
}

/** A parsed header, or why the first bytes are not one. */
export type HeaderCheck = { ok: true; number: number } | { ok: false; reason: string };

/**
 * Checks a file header. A known magic with a newer version is a hard `FAILED_PRECONDITION` (an older
 * custodian must not guess at a newer format); anything else wrong is reported for the caller to judge.
 */
export function checkHeader(bytes: Buffer, magic: string, file: string): HeaderCheck {
  if (bytes.length < HEADER_BYTES) return { ok: false, reason: `header cut short at ${bytes.length} bytes` };
  if (bytes.toString("latin1", 0, 8) !== magic) return { ok: false, reason: "bad magic" };
  const version = bytes.readUInt32LE(8);
  if (version > FORMAT_VERSION) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `FileStore: ${file} uses format version ${version}, newer than the version ${FORMAT_VERSION} this custodian reads; upgrade custodian to open it`,
      { reason: "STORE_FORMAT_UNSUPPORTED", file, version, supported: FORMAT_VERSION },
    );
  }
  if (version === 0) return { ok: false, reason: "format version 0" };
  return { ok: true, number: bytes.readUInt32LE(12) };
}

/** Frames a JSON payload. */
export function encodeFrame(payload: string): Buffer {
  const body = Buffer.from(payload, "utf8");
  const frame = Buffer.allocUnsafe(FRAME_OVERHEAD + body.length);
  FRAME_MARKER.copy(frame, 0);
  frame.writeUInt32LE(body.length, 4);
  frame.writeUInt32LE(crc32(body, crc32(frame.subarray(4, 8))), 8);
  body.copy(frame, FRAME_OVERHEAD);
  return frame;
}

/** A decoded frame and the offset after it, or why the bytes at the offset are not a whole valid frame. */
export type FrameRead = { ok: true; payload: string; next: number } | { ok: false; reason: string };

/** Reads the frame at `offset`. */
export function readFrame(bytes: Buffer, offset: number): FrameRead {
  if (bytes.length - offset < FRAME_OVERHEAD) return { ok: false, reason: "frame header cut short" };
  if (!bytes.subarray(offset, offset + 4).equals(FRAME_MARKER)) return { ok: false, reason: "no frame marker" };
  const length = bytes.readUInt32LE(offset + 4);
  const end = offset + FRAME_OVERHEAD + length;
  if (end > bytes.length) return { ok: false, reason: "frame cut short" };
  const body = bytes.subarray(offset + FRAME_OVERHEAD, end);
  if (crc32(body, crc32(bytes.subarray(offset + 4, offset + 8))) !== bytes.readUInt32LE(offset + 8)) {
    return { ok: false, reason: "checksum mismatch" };
  }
  return { ok: true, payload: body.toString("utf8"), next: end };
}

/** The offset of the first whole valid frame at or after `from`, if any. */
export function findValidFrame(bytes: Buffer, from: number): number | undefined {
  let at = bytes.indexOf(FRAME_MARKER, from);
  while (at >= 0) {
    if (readFrame(bytes, at).ok) return at;
    at = bytes.indexOf(FRAME_MARKER, at + 1);
  }
  return undefined;
}

/** Parses a frame payload that passed its checksum; a parse failure then means a writer bug or tampering. */
export function parsePayload(payload: string, file: string, offset: number): unknown {
  try {
    return JSON.parse(payload);
  } catch (error) {
    throw corrupt(file, offset, "a checksummed frame does not hold valid JSON", error);
  }
}

/** `INTERNAL` for damaged store files: never guessed around, always reported with the place. */
export function corrupt(file: string, offset: number | undefined, why: string, cause?: unknown): CustodyError {
  const where = offset === undefined ? file : `${file} at byte ${offset}`;
  return new CustodyError(
    "INTERNAL",
    `FileStore: ${where} is corrupt: ${why}. Refusing to open rather than silently drop committed transactions; restore the directory from a backup`,
    { reason: "STORE_CORRUPT", file, ...(offset === undefined ? {} : { offset }) },
    cause === undefined ? undefined : { cause },
  );
}
