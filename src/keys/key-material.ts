/**
 * Turning unsealed key material into prepared signers: one copy of it, used by the engine's own thread
 * (`operations/signing.ts`, `operations/wallets.ts`) and by the signer pool's workers, so a signature is the same
 * whichever thread makes it.
 *
 * @module
 */
import type { HdCurve } from "../crypto/addresses/index.js";
import { deriveKeyPair, mnemonicToSeed } from "../crypto/hd/index.js";
import { type PreparedSigner, prepareSigner, type SigningCurve } from "../crypto/sign/index.js";
import type { WalletKeys } from "./key-cache.js";

/**
 * The BIP39 seed of a wallet's unsealed mnemonic record. An imported wallet may carry a BIP39 passphrase
 * after a newline: the form export bundles hold it in. The caller wipes `mnemonic`.
 */
export function seedOfMnemonicRecord(mnemonic: Uint8Array): Uint8Array {
  const [words, ...passphrase] = new TextDecoder().decode(mnemonic).split("\n");
  return mnemonicToSeed(words as string, passphrase.join("\n"));
}

/** The prepared signer of a wallet account at `path` on `curve`, deriving through the wallet's node cache. */
export function accountSigner(
  keys: WalletKeys,
  account: { readonly curve: string; readonly path: string },
  strictEd25519Paths: boolean,
): PreparedSigner {
  const pair = deriveKeyPair(keys.seed, account.curve as HdCurve, account.path, {
    strictEd25519Paths,
    cache: keys.nodes,
  });
  try {
    return prepareSigner(account.curve as SigningCurve, pair.privateKey);
  } finally {
    pair.privateKey.fill(0);
  }
}

/** The prepared signer of an unsealed private key; the caller's bytes are wiped. */
export function privateKeySigner(curve: string, secret: Uint8Array): PreparedSigner {
  try {
    return prepareSigner(curve as SigningCurve, secret);
  } finally {
    secret.fill(0);
  }
}
