/**
 * BIP39 mnemonics (English wordlist): generation from injected entropy, validation, and the seed.
 *
 * The seed uses Node's native PBKDF2 rather than a pure-JS one: 2048 rounds of HMAC-SHA512 are the most
 * expensive step of deriving a wallet, and the native form is several times faster.
 *
 * @module
 */
import { pbkdf2Sync } from "node:crypto";
import { entropyToMnemonic, validateMnemonic as validateWithWordlist } from "@scure/bip39";
import { wordlist as english } from "@scure/bip39/wordlists/english.js";
import { CustodyError, invalidArgument } from "../../common/errors.js";

/** The mnemonic lengths BIP39 defines (Turnkey's `mnemonicLength`). */
export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;

/** A BIP39 mnemonic length in words. */
export type MnemonicLength = (typeof MNEMONIC_LENGTHS)[number];

/** A source of cryptographically secure random bytes, injected so a seeded engine is deterministic. */
export type RandomBytes = (length: number) => Uint8Array;

const SEED_ROUNDS = 2048;
const SEED_BYTES = 64;

/**
 * A new English mnemonic of `length` words, from `length * 4 / 3` bytes of `randomBytes` (each word
 * carries 11 bits; one bit in 33 is checksum). The entropy buffer is wiped before returning.
 */
export function generateMnemonic(length: MnemonicLength, randomBytes: RandomBytes): string {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(length)) {
    throw invalidArgument(
      `mnemonicLength must be one of ${MNEMONIC_LENGTHS.join(", ")}, got ${length}`,
      "mnemonicLength",
    );
  }
  const entropyLength = (length * 4) / 3;
  const entropy = randomBytes(entropyLength);
  if (!(entropy instanceof Uint8Array) || entropy.length !== entropyLength) {
    throw new CustodyError(
      "INTERNAL",
      `the random source returned the wrong number of bytes (wanted ${entropyLength})`,
    );
  }
  try {
    return entropyToMnemonic(entropy, english);
  } finally {
    entropy.fill(0);
  }
}

/** Whether `mnemonic` is a valid English BIP39 mnemonic: known words, single spaces, a valid checksum. */
export function validateMnemonic(mnemonic: string): boolean {
  return validateWithWordlist(mnemonic, english);
}

/**
 * Throws `INVALID_ARGUMENT` naming `field` unless `mnemonic` is valid. The message never quotes the
 * mnemonic: it is the wallet's secret.
 */
export function assertValidMnemonic(mnemonic: string, field = "mnemonic"): void {
  if (!validateMnemonic(mnemonic)) {
    throw invalidArgument(
      `${field} is not a valid BIP39 mnemonic (English words, single spaces, 12 to 24 words, valid checksum)`,
      field,
    );
  }
}

/**
 * The BIP39 seed: PBKDF2-HMAC-SHA512 over the NFKD mnemonic, salt `"mnemonic" + passphrase` (NFKD),
 * 2048 rounds, 64 bytes. As BIP39 specifies, the mnemonic is not validated here; see
 * {@link assertValidMnemonic}.
 */
export function mnemonicToSeed(mnemonic: string, passphrase = ""): Uint8Array {
  const password = Buffer.from(mnemonic.normalize("NFKD"), "utf8");
  const salt = Buffer.from(`mnemonic${passphrase}`.normalize("NFKD"), "utf8");
  const derived = pbkdf2Sync(password, salt, SEED_ROUNDS, SEED_BYTES, "sha512");
  // Returned as a plain Uint8Array; the Buffers holding secrets are wiped.
  const seed = Uint8Array.from(derived);
  for (const buffer of [password, salt, derived]) buffer.fill(0);
  return seed;
}
