/**
 * Reading a store file frame by frame through a file handle, so a file of any size is read with one buffer of
 * about a chunk (or one frame, when a frame is larger) in memory. Each frame is checked by `readFrame` on the
 * bytes read so far, which hold everything of the frame the file holds: the checks, and the reasons they give,
 * are those of reading the whole file.
 *
 * @module
 */
import { type FileHandle, open } from "node:fs/promises";
import { FRAME_OVERHEAD, type FrameRead, HEADER_BYTES, readFrame } from "./format.js";

/** Bytes read at a time; a frame larger than this is read whole into a buffer of its size. */
const CHUNK_BYTES = 1 << 20;

export class FrameFile {
  /** The bytes of the file from `start` on, `filled` of them read. */
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private start = 0;
  private filled = 0;

  private constructor(
    private readonly handle: FileHandle,
    /** The file's size when it was opened; the files read this way are no longer written to. */
    readonly size: number,
  ) {}

  /** Opens `path`, or `undefined` when there is no such file. */
  static async open(path: string): Promise<FrameFile | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return new FrameFile(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The file's header bytes, fewer when the file is shorter, for `checkHeader`. */
  async header(): Promise<Buffer> {
    return this.bytes(0, Math.min(this.size, HEADER_BYTES));
  }

  /** The frame at `offset`, as `readFrame` reads it from the whole file (`next` is an offset in the file). */
  async frame(offset: number): Promise<FrameRead> {
    const left = this.size - offset;
    let bytes = await this.bytes(offset, Math.min(left, FRAME_OVERHEAD));
    if (bytes.length === FRAME_OVERHEAD) {
      const whole = FRAME_OVERHEAD + bytes.readUInt32LE(4);
      // A length that runs past the end of the file needs no more bytes: `readFrame` reports it cut short.
      if (whole <= left) bytes = await this.bytes(offset, whole);
    }
    const frame = readFrame(bytes, 0);
    return frame.ok ? { ok: true, payload: frame.payload, next: offset + frame.next } : frame;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** The `length` bytes at `offset` (all within the file), read into the buffer when they are not there yet. */
  private async bytes(offset: number, length: number): Promise<Buffer> {
    if (offset < this.start || offset + length > this.start + this.filled) await this.load(offset, length);
    return this.buffer.subarray(offset - this.start, offset - this.start + length);
  }

  /** Fills the buffer from `offset` with at least `length` bytes, a chunk when the file holds that much. */
  private async load(offset: number, length: number): Promise<void> {
    // The bytes already read from `offset` on are kept: frames are read in order, so the next one starts in them.
    const kept = offset >= this.start && offset < this.start + this.filled ? this.start + this.filled - offset : 0;
    const target = length > this.buffer.length ? Buffer.allocUnsafe(length) : this.buffer;
    if (kept > 0) this.buffer.copy(target, 0, offset - this.start, offset - this.start + kept);
    this.buffer = target;
    this.start = offset;
    this.filled = kept;
    const want = Math.min(this.buffer.length, this.size - offset);
    while (this.filled < want) {
      const { bytesRead } = await this.handle.read(this.buffer, this.filled, want - this.filled, offset + this.filled);
      if (bytesRead === 0) break; // shorter than when it was opened: the frame's checks report what is missing
      this.filled += bytesRead;
    }
  }
}
