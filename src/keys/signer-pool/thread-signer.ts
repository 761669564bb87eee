/**
 * What a signer thread does with a job: opens the sealed key (once per key: the prepared signer and, for
 * wallets, the seed and HD nodes are kept in the thread's own {@link KeyCache}) and signs the planned inputs.
 * Pure apart from that cache, so the same code runs whichever thread hosts it.
 *
 * @module
 */
import { createSealer, type Sealer } from "../../crypto/seal/index.js";
import { type PreparedSigner, type RawPayloadSignature, signPlan } from "../../crypto/sign/index.js";
import { KeyCache } from "../key-cache.js";
import { accountSigner, privateKeySigner, seedOfMnemonicRecord } from "../key-material.js";
import type { SealedKey, ToSigner } from "./protocol.js";

type OpenMessage = Extract<ToSigner, { type: "open" }>;
type SignMessage = Extract<ToSigner, { type: "sign" }>;

export class ThreadSigner {
  readonly #sealer: Sealer;
  readonly #strictEd25519Paths: boolean;
  readonly #keys = new KeyCache();

  /** Unwraps the data key; the key-encryption key's bytes are wiped once it has. */
  constructor(open: OpenMessage) {
    try {
      this.#sealer = createSealer({ keyEncryptionKey: open.keyEncryptionKey, wrappedDataKey: open.wrappedDataKey });
    } finally {
      open.keyEncryptionKey.fill(0);
    }
    this.#strictEd25519Paths = open.strictEd25519Paths;
  }

  async sign(message: SignMessage): Promise<RawPayloadSignature[]> {
    const signer = await this.#signer(message.key);
    return signPlan(signer, { curve: message.key.curve, taproot: message.taproot, inputs: message.inputs });
  }

  forget(id: string): void {
    this.#keys.forget(id);
  }

  #signer(key: SealedKey): Promise<PreparedSigner> {
    if (key.kind === "privateKey") {
      return this.#keys.signer(key.id, async () =>
        privateKeySigner(key.curve, this.#sealer.open(key.sealed, key.context)),
      );
    }
    return this.#keys.signer(key.id, async () => {
      const wallet = await this.#keys.wallet(key.walletId, async () => {
        const mnemonic = this.#sealer.open(key.sealed, key.context);
        try {
          return seedOfMnemonicRecord(mnemonic);
        } finally {
          mnemonic.fill(0);
        }
      });
      return accountSigner(wallet, key, this.#strictEd25519Paths);
    });
  }
}
