/**
 * HD wallets and their accounts: `create_wallet`, `create_wallet_accounts`, `update_wallet`, and the
 * queries `get_wallet`, `list_wallets`, `get_wallet_account`, `list_wallet_accounts`.
 *
 * A wallet's mnemonic is sealed at rest; its seed and derived HD nodes live only in the engine's key
 * cache. Accounts are listed per wallet (scope `walletId`) and, through `organizationAccounts`, per
 * organization, both in creation order.
 *
 * @module
 */
import * as v from "valibot";
import {
  ADDRESS_FORMATS,
  assertFormatAcceptsCurve,
  CURVES,
  deriveAddress,
  encodeAccountPublicKey,
  type HdCurve,
  PATH_FORMATS,
} from "../crypto/addresses/index.js";
import { utf8ToBytes } from "../crypto/bytes.js";
import {
  deriveKeyPair,
  formatDerivationPath,
  generateMnemonic,
  MNEMONIC_LENGTHS,
  type MnemonicLength,
  mnemonicToSeed,
  parseDerivationPath,
} from "../crypto/hd/index.js";
import { addressRecordId, type DataReader, type DataWriter, INDEX } from "../engine/data.js";
import type { KeyCache, WalletKeys } from "../engine/key-cache.js";
import type { RandomSource } from "../engine/random.js";
import type { WalletAccountRecord, WalletRecord } from "../engine/records.js";
import type { SecretVault } from "../engine/secrets.js";
import type { EngineServices } from "../engine/services.js";
import { CustodyError, invalidArgument } from "../errors.js";
import { defineActivity } from "./define.js";
import { id, int32, list, name } from "./schema.js";

/** Accounts one request may create. 1,000 are served; more are refused naming the limit. */
export const MAX_ACCOUNTS_PER_REQUEST = 1000;

/** `v1WalletAccountParams`. */
export const walletAccountParams = v.object({
  curve: v.picklist(CURVES),
  pathFormat: v.picklist(PATH_FORMATS),
  path: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(4096)),
  addressFormat: v.picklist(ADDRESS_FORMATS),
  name: v.optional(name),
});

const accountList = list(walletAccountParams, MAX_ACCOUNTS_PER_REQUEST);

/** `v1WalletParams` (also the optional `wallet` of `create_sub_organization`). */
export const walletParams = v.object({
  walletName: name,
  accounts: accountList,
  mnemonicLength: v.optional(int32),
});

export type WalletAccountParams = v.InferOutput<typeof walletAccountParams>;

/** What wallet writes need from their caller (an activity context or a sub-organization creation). */
export interface WalletWriteContext {
  readonly data: DataWriter;
  readonly now: number;
  readonly newId: () => string;
  readonly random: RandomSource;
  readonly services: EngineServices;
}

/** The sealing context of a wallet's mnemonic. */
export const mnemonicContext = (walletId: string) => `wallet:${walletId}:mnemonic`;

/** The wallet's seed from the key cache, unsealing and stretching the mnemonic on a miss. */
export function walletSeed(
  services: { secrets: SecretVault; keys: KeyCache },
  wallet: WalletRecord,
): Promise<WalletKeys> {
  return services.keys.wallet(wallet.id, async () => {
    const mnemonic = services.secrets.unseal(wallet.sealedMnemonic, mnemonicContext(wallet.id));
    try {
      // An imported wallet may carry a BIP39 passphrase after a newline: the form export bundles hold it in.
      const [words, ...passphrase] = new TextDecoder().decode(mnemonic).split("\n");
      return mnemonicToSeed(words as string, passphrase.join("\n"));
    } finally {
      mnemonic.fill(0);
    }
  });
}

/** A wallet of the organization, or NOT_FOUND naming `field`. */
export async function requireWallet(
  data: DataReader,
  organizationId: string,
  walletId: string,
  field: string,
): Promise<WalletRecord> {
  return data.requireInOrganization("wallets", walletId, organizationId, "wallet", field);
}

/**
 * Derives accounts of `wallet` (checking curve/format pairs, paths and uniqueness) and, when `persist`,
 * stores them with their address records. Returns the addresses in request order.
 */
export async function deriveWalletAccounts(
  context: WalletWriteContext,
  wallet: WalletRecord,
  accounts: readonly WalletAccountParams[],
  field: string,
  persist = true,
): Promise<string[]> {
  const { data, services } = context;
  const keys = await walletSeed(services, wallet);
  const seenAccounts = new Set<string>();
  const addresses: string[] = [];
  for (const [i, account] of accounts.entries()) {
    const at = `${field}[${i}]`;
    assertFormatAcceptsCurve(account.curve, account.addressFormat, `${at}.addressFormat`);
    // One spelling per path (`44h` and `44'` are the same level), so duplicates are caught whatever the notation.
    const canonicalPath = formatDerivationPath(parseDerivationPath(account.path, `${at}.path`));
    // Several accounts may share a path when their curve or address format differs (Turnkey's cosmjs example
    // keeps UNCOMPRESSED and COSMOS at m/44'/118'/0'/0/0); the same triple twice is a duplicate.
    const accountKey = INDEX.walletAccountByPathAndFormat(
      wallet.id,
      canonicalPath,
      account.curve,
      account.addressFormat,
    );
    // A preview (`persist: false`) may name accounts that exist: it only shows their addresses.
    const taken = persist && (await data.lookup("walletAccountByPathAndFormat", accountKey));
    if (seenAccounts.has(accountKey) || taken) {
      throw new CustodyError(
        "ALREADY_EXISTS",
        `the wallet already has an ${account.addressFormat} account on ${account.curve} at path ${account.path}`,
        { field: `${at}.path`, reason: "WALLET_ACCOUNT_PATH_EXISTS" },
      );
    }
    seenAccounts.add(accountKey);
    const pair = deriveKeyPair(keys.seed, account.curve, account.path, {
      strictEd25519Paths: services.strictEd25519Paths,
      field: `${at}.path`,
      curveField: `${at}.curve`,
      cache: keys.nodes,
    });
    pair.privateKey.fill(0);
    // assertFormatAcceptsCurve above admitted only curves some format derives from (never P-256).
    const address = deriveAddress(account.curve as HdCurve, account.addressFormat, pair.publicKey);
    addresses.push(address);
    if (!persist) continue;
    if (await data.get("addresses", addressRecordId(wallet.organizationId, address))) {
      throw new CustodyError("ALREADY_EXISTS", `address ${address} already exists in the organization`, {
        field: `${at}.path`,
        reason: "ADDRESS_EXISTS",
      });
    }
    const record: WalletAccountRecord = {
      id: context.newId(),
      organizationId: wallet.organizationId,
      walletId: wallet.id,
      curve: account.curve,
      pathFormat: account.pathFormat,
      // Stored in canonical spelling so look-ups by path match whatever notation the caller uses.
      path: canonicalPath,
      addressFormat: account.addressFormat,
      address,
      publicKey: encodeAccountPublicKey(account.curve as HdCurve, pair.publicKey),
      name: account.name ?? null,
      exported: false,
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("walletAccounts", record);
    await data.put("organizationAccounts", {
      id: record.id,
      organizationId: record.organizationId,
      walletId: wallet.id,
    });
    await data.put("addresses", {
      id: addressRecordId(record.organizationId, address),
      organizationId: record.organizationId,
      kind: "walletAccount",
      ownerId: record.id,
    });
  }
  return addresses;
}

/** Creates a wallet with a fresh mnemonic and its first accounts. */
export async function createWalletRecords(
  context: WalletWriteContext,
  organizationId: string,
  params: v.InferOutput<typeof walletParams>,
  field: string,
): Promise<{ walletId: string; addresses: string[] }> {
  const length = params.mnemonicLength ?? 12;
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(length)) {
    throw invalidArgument(`mnemonicLength must be one of ${MNEMONIC_LENGTHS.join(", ")}`, `${field}mnemonicLength`);
  }
  const mnemonic = utf8ToBytes(generateMnemonic(length as MnemonicLength, context.random));
  try {
    return await storeWallet(context, organizationId, params, { mnemonic, imported: false }, field);
  } finally {
    mnemonic.fill(0);
  }
}

/**
 * Stores a wallet holding `mnemonic` (UTF-8, already validated; `words\npassphrase` for a passphrase) and
 * derives its first accounts. `imported` marks a wallet whose mnemonic came from outside.
 */
export async function storeWallet(
  context: WalletWriteContext,
  organizationId: string,
  params: { walletName: string; accounts: readonly WalletAccountParams[] },
  secret: { mnemonic: Uint8Array; imported: boolean },
  field: string,
): Promise<{ walletId: string; addresses: string[] }> {
  const { data } = context;
  if (await data.lookup("walletByName", INDEX.walletByName(organizationId, params.walletName))) {
    throw new CustodyError("ALREADY_EXISTS", `a wallet named ${params.walletName} already exists`, {
      field: `${field}walletName`,
      reason: "WALLET_NAME_EXISTS",
    });
  }
  const walletId = context.newId();
  const wallet: WalletRecord = {
    id: walletId,
    organizationId,
    walletName: params.walletName,
    sealedMnemonic: context.services.secrets.seal(secret.mnemonic, mnemonicContext(walletId)),
    exported: false,
    imported: secret.imported,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await data.put("wallets", wallet);
  try {
    const addresses = await deriveWalletAccounts(context, wallet, params.accounts, `${field}accounts`);
    return { walletId, addresses };
  } catch (error) {
    // The transaction rolls the wallet back; its seed must not outlive it in the cache.
    context.services.keys.forget(walletId);
    throw error;
  }
}

export const createWallet = defineActivity({
  method: "createWallet",
  path: "create_wallet",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      intent: "createWalletIntent",
      result: "createWalletResult",
      parameters: walletParams,
    },
  ],
  policy: { resource: "WALLET", action: "CREATE" },
  handler: (context, params) => createWalletRecords(context, context.organization.id, params, "parameters."),
});

export const createWalletAccounts = defineActivity({
  method: "createWalletAccounts",
  path: "create_wallet_accounts",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
      intent: "createWalletAccountsIntent",
      result: "createWalletAccountsResult",
      parameters: v.object({ walletId: id, accounts: accountList, persist: v.optional(v.boolean()) }),
    },
  ],
  policy: { resource: "WALLET", action: "CREATE" },
  async handler(context, params) {
    const wallet = await requireWallet(context.data, context.organization.id, params.walletId, "parameters.walletId");
    const addresses = await deriveWalletAccounts(
      context,
      wallet,
      params.accounts,
      "parameters.accounts",
      params.persist ?? true,
    );
    return { addresses };
  },
});

export const updateWallet = defineActivity({
  method: "updateWallet",
  path: "update_wallet",
  versions: [
    {
      type: "ACTIVITY_TYPE_UPDATE_WALLET",
      intent: "updateWalletIntent",
      result: "updateWalletResult",
      parameters: v.object({ walletId: id, walletName: v.optional(name) }),
    },
  ],
  policy: { resource: "WALLET", action: "UPDATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const wallet = await requireWallet(data, organization.id, params.walletId, "parameters.walletId");
    if (params.walletName !== undefined && params.walletName !== wallet.walletName) {
      if (await data.lookup("walletByName", INDEX.walletByName(organization.id, params.walletName))) {
        throw new CustodyError("ALREADY_EXISTS", `a wallet named ${params.walletName} already exists`, {
          field: "parameters.walletName",
          reason: "WALLET_NAME_EXISTS",
        });
      }
      await data.put("wallets", { ...wallet, walletName: params.walletName, updatedAtMs: context.now });
    }
    return { walletId: wallet.id };
  },
});
