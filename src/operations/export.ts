/**
 * Export: `export_wallet` (the mnemonic), `export_wallet_account` (one account's private key) and
 * `export_private_key` (the raw key), each sealed to the client's `targetPublicKey` in an export bundle
 * signed by the engine's bundle signer, which `@turnkey/crypto`'s `decryptExportBundle` opens. An exported
 * wallet, account or key is marked so, which is what lets deletion go ahead without `deleteWithoutExport`.
 *
 * Private keys leave as their raw 32 bytes (a secp256k1 scalar or an ed25519 seed); a client asking for the
 * Solana keypair form (`keyFormat: "SOLANA"`) builds `base58(seed ‖ public key)` from those bytes itself.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, notFound } from "../common/errors.js";
import type { ActivityContext, PolicyTargetContext } from "../contract/operation.js";
import { defineActivity } from "../contract/operation.js";
import { id, withoutNul } from "../contract/schema.js";
import type { HdCurve } from "../crypto/addresses/index.js";
import { deriveKeyPair } from "../crypto/hd/index.js";
import { privateKeyPolicyData, walletAccountTarget, walletPolicyData } from "../domain/policy-targets.js";
import { addressRecordId } from "../model/data.js";
import type { WalletAccountRecord } from "../model/records.js";
import { privateKeyContext, requirePrivateKey } from "./private-keys.js";
import { targetPublicKey } from "./sessions.js";
import { mnemonicContext, requireWallet, walletSeed } from "./wallets.js";

const MNEMONIC_LANGUAGES = [
  "MNEMONIC_LANGUAGE_ENGLISH",
  "MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE",
  "MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE",
  "MNEMONIC_LANGUAGE_CZECH",
  "MNEMONIC_LANGUAGE_FRENCH",
  "MNEMONIC_LANGUAGE_ITALIAN",
  "MNEMONIC_LANGUAGE_JAPANESE",
  "MNEMONIC_LANGUAGE_KOREAN",
  "MNEMONIC_LANGUAGE_SPANISH",
] as const;

const address = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(512), withoutNul);

/** Seals `plaintext` into an export bundle for the request's organization, then wipes it. */
async function exportBundle(context: ActivityContext, plaintext: Uint8Array, target: string): Promise<string> {
  try {
    return await context.services.enclaveSigner.exportBundle({
      plaintext,
      targetPublicKey: target,
      organizationId: context.organization.id,
      randomBytes: context.random,
    });
  } finally {
    plaintext.fill(0);
  }
}

/** The wallet account whose address is `value`, in the organization, or NOT_FOUND naming `field`. */
async function requireAccountByAddress(
  context: Pick<PolicyTargetContext, "data" | "organization">,
  value: string,
  field: string,
): Promise<WalletAccountRecord> {
  const owner = await context.data.get("addresses", addressRecordId(context.organization.id, value));
  const account = owner?.kind === "walletAccount" ? await context.data.get("walletAccounts", owner.ownerId) : undefined;
  if (!account) throw notFound("wallet account", value, field);
  return account;
}

export const exportWallet = defineActivity({
  method: "exportWallet",
  path: "export_wallet",
  versions: [
    {
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      intent: "exportWalletIntent",
      result: "exportWalletResult",
      parameters: v.object({ walletId: id, targetPublicKey, language: v.optional(v.picklist(MNEMONIC_LANGUAGES)) }),
    },
  ],
  policy: { resource: "WALLET", action: "EXPORT" },
  async policyTarget(context, params) {
    const wallet = await requireWallet(context.data, context.organization.id, params.walletId, "parameters.walletId");
    return { wallet: walletPolicyData(wallet) };
  },
  async handler(context, params) {
    const { data, organization, services } = context;
    const wallet = await requireWallet(data, organization.id, params.walletId, "parameters.walletId");
    // Mnemonics here are English (generated so, and imports are checked against that list). The same entropy
    // spelled in another wordlist is a different BIP39 mnemonic with a different seed: it would restore none
    // of the wallet's accounts, so it is refused rather than handed out.
    if (params.language !== undefined && params.language !== "MNEMONIC_LANGUAGE_ENGLISH") {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `this wallet's mnemonic is English; in ${params.language} words it would derive a different seed and none of the wallet's accounts`,
        { field: "parameters.language", reason: "MNEMONIC_LANGUAGE_UNSUPPORTED" },
      );
    }
    const mnemonic = services.secrets.unseal(wallet.sealedMnemonic, mnemonicContext(wallet.id));
    const bundle = await exportBundle(context, mnemonic, params.targetPublicKey);
    if (!wallet.exported) await data.put("wallets", { ...wallet, exported: true, updatedAtMs: context.now });
    return { walletId: wallet.id, exportBundle: bundle };
  },
});

export const exportWalletAccount = defineActivity({
  method: "exportWalletAccount",
  path: "export_wallet_account",
  versions: [
    {
      type: "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
      intent: "exportWalletAccountIntent",
      result: "exportWalletAccountResult",
      parameters: v.object({ address, targetPublicKey }),
    },
  ],
  policy: { resource: "WALLET", action: "EXPORT" },
  async policyTarget(context, params) {
    return walletAccountTarget(
      context.data,
      await requireAccountByAddress(context, params.address, "parameters.address"),
    );
  },
  async handler(context, params) {
    const { data, services } = context;
    const account = await requireAccountByAddress(context, params.address, "parameters.address");
    const wallet = await requireWallet(data, account.organizationId, account.walletId, "parameters.address");
    const keys = await walletSeed(services, wallet);
    const pair = deriveKeyPair(keys.seed, account.curve as HdCurve, account.path, {
      strictEd25519Paths: services.strictEd25519Paths,
      cache: keys.nodes,
    });
    const bundle = await exportBundle(context, pair.privateKey, params.targetPublicKey);
    if (!account.exported) await data.put("walletAccounts", { ...account, exported: true, updatedAtMs: context.now });
    return { address: account.address, exportBundle: bundle };
  },
});

export const exportPrivateKey = defineActivity({
  method: "exportPrivateKey",
  path: "export_private_key",
  versions: [
    {
      type: "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
      intent: "exportPrivateKeyIntent",
      result: "exportPrivateKeyResult",
      parameters: v.object({ privateKeyId: id, targetPublicKey }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "EXPORT" },
  async policyTarget(context, params) {
    const key = await requirePrivateKey(
      context.data,
      context.organization.id,
      params.privateKeyId,
      "parameters.privateKeyId",
    );
    return { private_key: privateKeyPolicyData(key) };
  },
  async handler(context, params) {
    const { data, organization, services } = context;
    const key = await requirePrivateKey(data, organization.id, params.privateKeyId, "parameters.privateKeyId");
    const secret = services.secrets.unseal(key.sealedPrivateKey, privateKeyContext(key.id));
    const bundle = await exportBundle(context, secret, params.targetPublicKey);
    if (!key.exported) await data.put("privateKeys", { ...key, exported: true, updatedAtMs: context.now });
    return { privateKeyId: key.id, exportBundle: bundle };
  },
});
