import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "../../../src/crypto/bytes.js";
import type { RandomBytes } from "../../../src/crypto/hpke/index.js";

/** A deterministic byte source for tests (SHA-256 of seed and counter): same seed, same bytes. */
export function seededRandomBytes(seed: string): RandomBytes {
  let counter = 0;
  return (length) => {
    const out = new Uint8Array(length);
    for (let offset = 0; offset < length; offset += 32) {
      const block = sha256(utf8ToBytes(`${seed}:${counter++}`));
      out.set(block.subarray(0, Math.min(32, length - offset)), offset);
    }
    return out;
  };
}
