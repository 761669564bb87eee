/**
 * Import: `init_import_wallet` / `import_wallet` and `init_import_private_key` / `import_private_key`.
 *
 * The handshake: init hands the user a signed import target (a fresh P-256 public key bound to the
 * organization and user); `@turnkey/crypto`'s `encryptWalletToBundle` / `encryptPrivateKeyToBundle` seal the
 * secret to it; the import opens it. Between the two the target's private key waits in the store, sealed,
 * one per user and kind: a later init replaces it and a successful import consumes it. Imports always
 * target the submitter's own user (docs/spec/policy-language.md §3, implicit permissions).
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import { ADDRESS_FORMATS, CURVES } from "../crypto/addresses/index.js";
import { decodeUtf8Strict, utf8ToBytes } from "../crypto/bytes.js";
import { assertValidMnemonic } from "../crypto/hd/index.js";
import { decryptImportBundle } from "../crypto/hpke/index.js";
import {
  assertPrivateKeyFormat,
  encodePrivateKeyPublicKey,
  privateKeyAddress,
  publicKeyOfSecret,
} from "../crypto/keys/private-keys.js";
import { requireUser } from "../domain/credentials/index.js";
import type { ImportTargetRecord, PrivateKeyRecord } from "../model/records.js";
import {
  assertUniqueKeyName,
  MAX_PRIVATE_KEYS_PER_ORGANIZATION,
  privateKeyContext,
  storePrivateKey,
} from "./private-keys.js";
import { accountList, storeWallet } from "./wallets.js";

type ImportKind = ImportTargetRecord["kind"];

const BUNDLE_FIELD = "parameters.encryptedBundle";

/** A client bundle: JSON of two hex members, a 65-byte key and a ciphertext of a mnemonic or key. */
const encryptedBundle = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(16_384));

const INIT_NAME: Record<ImportKind, string> = { wallet: "init_import_wallet", privateKey: "init_import_private_key" };

const targetId = (kind: ImportKind, userId: string) => `${kind}:${userId}`;
const targetContext = (targetRecordId: string) => `importTarget:${targetRecordId}`;

/** The importing user: the submitter themselves, of this organization. */
async function importingUser(context: ActivityContext, userId: string) {
  if (userId !== context.principal.userId) {
    throw new CustodyError("PERMISSION_DENIED", "an import can only target the submitting user", {
      field: "parameters.userId",
      reason: "IMPORT_USER_MISMATCH",
    });
  }
  return requireUser(context.data, context.organization.id, userId, "parameters.userId");
}

/** Creates the user's import target of `kind`, keeps its private key sealed, and returns the signed bundle. */
async function initImport(context: ActivityContext, kind: ImportKind, userId: string) {
  const { organization, services } = context;
  const user = await importingUser(context, userId);
  const target = services.enclaveSigner.importTarget({
    organizationId: organization.id,
    userId: user.id,
    randomBytes: context.random,
  });
  const recordId = targetId(kind, user.id);
  let sealedPrivateKey: string;
  try {
    sealedPrivateKey = services.secrets.seal(target.targetPrivateKey, targetContext(recordId));
  } finally {
    target.targetPrivateKey.fill(0);
  }
  await context.data.put("importTargets", {
    id: recordId,
    organizationId: organization.id,
    userId: user.id,
    kind,
    sealedPrivateKey,
    createdAtMs: context.now,
  });
  return { importBundle: target.importBundle };
}

/**
 * Opens the client's bundle with the user's pending target of `kind` and consumes the target. The caller
 * owns (and wipes) the plaintext. A bundle that does not open leaves the target for another try.
 */
async function openImport(context: ActivityContext, kind: ImportKind, userId: string, bundle: string) {
  const user = await importingUser(context, userId);
  const recordId = targetId(kind, user.id);
  const target = await context.data.get("importTargets", recordId);
  if (!target || target.organizationId !== context.organization.id) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `there is no import target to open this bundle with: call ${INIT_NAME[kind]} first and encrypt to its bundle`,
      { field: BUNDLE_FIELD, reason: "IMPORT_TARGET_NOT_FOUND" },
    );
  }
  const targetPrivateKey = context.services.secrets.unseal(target.sealedPrivateKey, targetContext(recordId));
  try {
    const plaintext = await decryptImportBundle({ bundle, targetPrivateKey });
    await context.data.delete("importTargets", recordId);
    return plaintext;
  } finally {
    targetPrivateKey.fill(0);
  }
}

/**
 * The mnemonic an import bundle holds, normalized to single spaces and checked, with the optional BIP39
 * passphrase after a newline kept as is (the form export bundles use). Messages never quote the secret.
 */
function importedMnemonic(plaintext: Uint8Array): Uint8Array {
  const text = decodeUtf8Strict(plaintext);
  if (text === undefined) throw invalidArgument(`${BUNDLE_FIELD} does not hold UTF-8 text`, BUNDLE_FIELD);
  const newline = text.indexOf("\n");
  const words = (newline < 0 ? text : text.slice(0, newline)).trim().split(/\s+/).join(" ");
  const passphrase = newline < 0 ? "" : text.slice(newline + 1);
  assertValidMnemonic(words, BUNDLE_FIELD);
  return utf8ToBytes(passphrase === "" ? words : `${words}\n${passphrase}`);
}

export const initImportWallet = defineActivity({
  method: "initImportWallet",
  path: "init_import_wallet",
  versions: [
    {
      type: "ACTIVITY_TYPE_INIT_IMPORT_WALLET",
      intent: "initImportWalletIntent",
      result: "initImportWalletResult",
      parameters: v.object({ userId: id }),
    },
  ],
  policy: { resource: "WALLET", action: "IMPORT" },
  handler: (context, params) => initImport(context, "wallet", params.userId),
});

export const importWallet = defineActivity({
  method: "importWallet",
  path: "import_wallet",
  versions: [
    {
      type: "ACTIVITY_TYPE_IMPORT_WALLET",
      intent: "importWalletIntent",
      result: "importWalletResult",
      parameters: v.object({
        userId: id,
        walletName: name,
        encryptedBundle,
        accounts: accountList,
      }),
    },
  ],
  policy: { resource: "WALLET", action: "IMPORT" },
  async handler(context, params) {
    const plaintext = await openImport(context, "wallet", params.userId, params.encryptedBundle);
    let mnemonic: Uint8Array;
    try {
      mnemonic = importedMnemonic(plaintext);
    } finally {
      plaintext.fill(0);
    }
    try {
      const secret = { mnemonic, imported: true };
      return await storeWallet(context, context.organization.id, params, secret, "parameters.");
    } finally {
      mnemonic.fill(0);
    }
  },
});

export const initImportPrivateKey = defineActivity({
  method: "initImportPrivateKey",
  path: "init_import_private_key",
  versions: [
    {
      type: "ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY",
      intent: "initImportPrivateKeyIntent",
      result: "initImportPrivateKeyResult",
      parameters: v.object({ userId: id }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "IMPORT" },
  handler: (context, params) => initImport(context, "privateKey", params.userId),
});

export const importPrivateKey = defineActivity({
  method: "importPrivateKey",
  path: "import_private_key",
  versions: [
    {
      type: "ACTIVITY_TYPE_IMPORT_PRIVATE_KEY",
      intent: "importPrivateKeyIntent",
      result: "importPrivateKeyResult",
      parameters: v.object({
        userId: id,
        privateKeyName: name,
        encryptedBundle,
        curve: v.picklist(CURVES),
        addressFormats: list(v.picklist(ADDRESS_FORMATS), ADDRESS_FORMATS.length),
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "IMPORT" },
  async handler(context, params) {
    const { data, organization } = context;
    const { curve } = params;
    for (const [i, format] of params.addressFormats.entries())
      assertPrivateKeyFormat(curve, format, `parameters.addressFormats[${i}]`);
    await assertUniqueKeyName(data, organization.id, params.privateKeyName, "parameters.privateKeyName");
    const held = await data.list("privateKeys", organization.id, { limit: MAX_PRIVATE_KEYS_PER_ORGANIZATION });
    if (held.length >= MAX_PRIVATE_KEYS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_PRIVATE_KEYS_PER_ORGANIZATION} private keys`,
        {
          field: "parameters.privateKeyName",
          limit: MAX_PRIVATE_KEYS_PER_ORGANIZATION,
        },
      );
    }
    const secret = await openImport(context, "privateKey", params.userId, params.encryptedBundle);
    const privateKeyId = context.newId();
    let record: PrivateKeyRecord;
    try {
      const publicKey = publicKeyOfSecret(curve, secret, BUNDLE_FIELD);
      record = {
        id: privateKeyId,
        organizationId: organization.id,
        privateKeyName: params.privateKeyName,
        curve,
        publicKey: encodePrivateKeyPublicKey(curve, publicKey),
        sealedPrivateKey: context.services.secrets.seal(secret, privateKeyContext(privateKeyId)),
        addresses: params.addressFormats.map((format) => ({
          format,
          address: privateKeyAddress(curve, format, publicKey),
        })),
        tagIds: [],
        exported: false,
        imported: true,
        createdAtMs: context.now,
        updatedAtMs: context.now,
      };
    } finally {
      secret.fill(0);
    }
    await storePrivateKey(data, record, "parameters.addressFormats");
    return { privateKeyId, addresses: record.addresses.map((a) => ({ format: a.format, address: a.address })) };
  },
});
