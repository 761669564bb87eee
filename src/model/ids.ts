/**
 * Object ids: UUIDv7 (RFC 9562), time-ordered so that a store lists a scope in creation order by sorting
 * ids, which is what makes `after`/`before` cursors cheap. Within one millisecond, and when the clock
 * stands still or steps back, a counter keeps ids strictly increasing (RFC 9562 §6.2, method 1).
 *
 * @module
 */
import type { Clock, RandomSource } from "./random.js";

/** Makes strictly increasing UUIDv7 strings from a clock and a random source. */
export class IdGenerator {
  private lastMs = -1;
  private counter = 0;

  constructor(
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  next(): string {
    let ms = this.clock();
    if (ms <= this.lastMs) {
      ms = this.lastMs;
      this.counter++;
      if (this.counter > 0xfff) {
        // The 12-bit counter ran out within one millisecond: borrow the next millisecond.
        ms = this.lastMs + 1;
        this.counter = 0;
      }
    } else {
      this.counter = 0;
    }
    this.lastMs = ms;
    const bytes = this.random(16);
    bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
    bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
    bytes[2] = (ms >>> 24) & 0xff;
    bytes[3] = (ms >>> 16) & 0xff;
    bytes[4] = (ms >>> 8) & 0xff;
    bytes[5] = ms & 0xff;
    bytes[6] = 0x70 | ((this.counter >>> 8) & 0x0f);
    bytes[7] = this.counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
    // Written as ASCII into one buffer and read out as one flat string. Built by concatenation, an id would be a
    // rope of twenty pieces, which V8 flattens again the first time a map hashes it or a comparison reads it.
    let at = 0;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) ID_TEXT[at++] = DASH;
      const byte = bytes[i] as number;
      ID_TEXT[at++] = HEX_DIGITS[byte >>> 4] as number;
      ID_TEXT[at++] = HEX_DIGITS[byte & 0x0f] as number;
    }
    return ID_TEXT.toString("latin1", 0, ID_LENGTH);
  }
}

const ID_LENGTH = 36;
/** The text of the id being made; reused, since `next` runs to the end before any other call. */
const ID_TEXT = Buffer.alloc(ID_LENGTH);
const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const DASH = "-".charCodeAt(0);
