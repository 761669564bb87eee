/**
 * Randomness and time, injected into the engine so that tests can make it deterministic.
 *
 * @module
 */
import { randomFillSync } from "node:crypto";
import { chacha20 } from "@noble/ciphers/chacha.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";

/** Returns `length` random bytes. Key material is drawn from it, so it must be cryptographically strong. */
export type RandomSource = (length: number) => Uint8Array;

/** Milliseconds since the Unix epoch. */
export type Clock = () => number;

/**
 * The operating system's CSPRNG. Every activity draws several small values (three ids at least), and a system
 * call per draw would cost more than much of the activity, so small draws are served from a 4 KiB buffer filled in
 * one call. Served bytes are wiped from the buffer at once, so no random value (a key among them) stays in it
 * after its draw; large draws go to the system directly.
 */
export const systemRandom: RandomSource = (length) => {
  if (length > RANDOM_POOL_BYTES / 8) return randomFillSync(new Uint8Array(length));
  if (poolOffset + length > RANDOM_POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.slice(poolOffset, poolOffset + length);
  pool.fill(0, poolOffset, poolOffset + length);
  poolOffset += length;
  return out;
};

const RANDOM_POOL_BYTES = 4096;
const pool = new Uint8Array(RANDOM_POOL_BYTES);
// Starts exhausted, so the first draw fills the buffer.
let poolOffset = RANDOM_POOL_BYTES;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();

/**
 * A deterministic random source for tests and reproducible fixtures: the ChaCha20 keystream under
 * SHA-256(seed). Two sources with the same seed give the same bytes in the same order.
 * Never use it for real keys: anyone who knows the seed knows every key.
 */
export function createSeededRandom(seed: string | Uint8Array): RandomSource {
  const key = sha256(typeof seed === "string" ? utf8ToBytes(seed) : seed);
  const nonce = new Uint8Array(12);
  let block = 0;
  let buffer = new Uint8Array(0);
  let offset = 0;
  return (length) => {
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      if (offset === buffer.length) {
        // 4 KiB of keystream at a time; the block counter keeps successive chunks distinct.
        buffer = chacha20(key, nonce, new Uint8Array(4096), undefined, block);
        block += 4096 / 64;
        offset = 0;
      }
      const take = Math.min(length - filled, buffer.length - offset);
      out.set(buffer.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
    }
    return out;
  };
}

/**
 * A clock for tests: starts at `startMs` and advances by `stepMs` at every reading, so successive
 * in-process calls get distinct timestamps (and so distinct fingerprints) while staying reproducible.
 */
export function createSteppingClock(startMs: number, stepMs = 1): Clock {
  let now = startMs - stepMs;
  return () => {
    now += stepMs;
    return now;
  };
}
