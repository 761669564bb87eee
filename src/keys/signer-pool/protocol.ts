/**
 * The messages between the engine and its signer threads. Key material crosses only sealed, as the store
 * holds it (AES-256-GCM under the vault's data key, bound to its record by the context); the key that opens
 * it crosses once per thread, as bytes moved (transferred) rather than copied, never as a string.
 *
 * @module
 */
import type { PlannedInput, RawPayloadSignature, SigningCurve } from "../../crypto/sign/index.js";

/** The sealed key a job signs with: a standalone private key, or a wallet account derived from its wallet. */
export type SealedKey =
  | {
      readonly kind: "privateKey";
      /** The private key's id: what the thread caches its prepared signer under. */
      readonly id: string;
      readonly curve: SigningCurve;
      /** `sealedPrivateKey` as stored, and the context it was sealed for. */
      readonly sealed: string;
      readonly context: string;
    }
  | {
      readonly kind: "walletAccount";
      /** The account's id: what the thread caches its prepared signer under. */
      readonly id: string;
      readonly curve: SigningCurve;
      readonly path: string;
      readonly walletId: string;
      /** The wallet's `sealedMnemonic` as stored, and the context it was sealed for. */
      readonly sealed: string;
      readonly context: string;
    };

/** Engine → thread. */
export type ToSigner =
  /** First message: what opens sealed keys. `keyEncryptionKey`'s buffer is transferred. */
  | {
      readonly type: "open";
      readonly keyEncryptionKey: Uint8Array;
      readonly wrappedDataKey: string;
      readonly strictEd25519Paths: boolean;
      /** The thread's nice value (Linux), set before it signs anything. */
      readonly nice: number;
    }
  /** Signs every input with the key, in order (BIP340 Schnorr by the tweaked key when `taproot`). */
  | {
      readonly type: "sign";
      readonly job: number;
      readonly key: SealedKey;
      readonly taproot: boolean;
      readonly inputs: readonly PlannedInput[];
    }
  /** Drops what the thread caches for a deleted wallet, account or private key. */
  | { readonly type: "forget"; readonly id: string };

/** A `CustodyError` as it crosses back: code, message and details (which never hold secrets). */
export interface SignerFailure {
  readonly code: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** A job's signatures, or why it failed. */
export type JobAnswer =
  | { readonly type: "signed"; readonly job: number; readonly signatures: RawPayloadSignature[] }
  | { readonly type: "failed"; readonly job: number; readonly failure: SignerFailure };

/** Thread → engine: the answers to one or more jobs, in the order they were made (see `worker.ts`). */
export interface FromSigner {
  readonly answers: readonly JobAnswer[];
}
