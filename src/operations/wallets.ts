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
import { CustodyError } from "../common/errors.js";
import { defineActivity } from "../contract/operation.js";
import { id, int32, list, name } from "../contract/schema.js";
import type { EngineServices } from "../contract/services.js";
import {
  ADDRESS_FORMATS,
  addressOfDerivedKey,
  assertFormatAcceptsCurve,
  CURVES,
  PATH_FORMATS,
} from "../crypto/addresses/index.js";
import { utf8ToBytes } from "../crypto/bytes.js";
import {
  deriveKeyPair,
  formatDerivationPath,
  generateMnemonic,
  MNEMONIC_LENGTHS,
  type MnemonicLength,
  parseDerivationPath,
} from "../crypto/hd/index.js";
import type { KeyCache, WalletKeys } from "../keys/key-cache.js";
import { seedOfMnemonicRecord } from "../keys/key-material.js";
import type { SecretVault } from "../keys/secrets.js";
import { addressRecordId, type DataReader, type DataWriter, INDEX } from "../model/data.js";
import type { RandomSource } from "../model/random.js";
import type { WalletAccountRecord, WalletRecord } from "../model/records.js";

/** Accounts one request may create. 1,000 are served; more are refused naming the limit. */
export const MAX_ACCOUNTS_PER_REQUEST = 1000;

/**
 * Levels one account path may have. BIP32 allows 255, but every documented path has at most six; deeper
 * ones only make a request expensive (each level is a point multiplication).
 */
export const MAX_PATH_LEVELS = 24;

/**
 * HD nodes one request may ask to derive: the distinct path prefixes of its accounts, the work a cold
 * cache does (each node is a point multiplication). 1,000 accounts along one of the usual paths fit
 * (`m/44'/60'/0'/0/i` is 1,004 nodes, `m/44'/501'/i'/0'` 2,002); a request built to keep the engine busy
 * does not.
 */
export const MAX_DERIVED_NODES_PER_REQUEST = 2500;

/** The levels below `m` a path names (it is parsed strictly later; this only bounds the work). */
function levelsOf(path: string): number {
  return path.split("/").length - 1;
}

/** The distinct nodes (path prefixes, per curve) that deriving `accounts` may have to compute. */
function derivedNodesOf(accounts: readonly { curve: string; path: string }[]): number {
  const nodes = new Set<string>();
  for (const { curve, path } of accounts) {
    let prefix = curve;
    for (const level of path.split("/").slice(1)) {
      prefix += `/${level}`;
      nodes.add(prefix);
      if (nodes.size > MAX_DERIVED_NODES_PER_REQUEST) return nodes.size;
    }
  }
  return nodes.size;
}

/** `v1WalletAccountParams`. */
export const walletAccountParams = v.object({
  curve: v.picklist(CURVES),
  pathFormat: v.picklist(PATH_FORMATS),
  path: v.pipe(
    v.string(),
    v.minLength(1, "must not be empty"),
    v.maxLength(4096),
    v.check((path) => levelsOf(path) <= MAX_PATH_LEVELS, `must have at most ${MAX_PATH_LEVELS} levels`),
  ),
  addressFormat: v.picklist(ADDRESS_FORMATS),
  name: v.optional(name),
});

/** The accounts of one request, bounded in count and in the derivation work they ask for. */
export const accountList = v.pipe(
  list(walletAccountParams, MAX_ACCOUNTS_PER_REQUEST),
  v.check(
    (accounts) => derivedNodesOf(accounts) <= MAX_DERIVED_NODES_PER_REQUEST,
    `may ask for at most ${MAX_DERIVED_NODES_PER_REQUEST} derived HD nodes (distinct path prefixes) in one request`,
  ),
);

/** How long derivation runs before it lets other work on the event loop in. */
const YIELD_EVERY_MS = 10;

/** `mnemonicLength`: one of the lengths BIP39 defines, refused before any activity exists. */
const mnemonicLength = v.pipe(
  int32,
  v.check(
    (length) => (MNEMONIC_LENGTHS as readonly number[]).includes(length),
    `must be one of ${MNEMONIC_LENGTHS.join(", ")}`,
  ),
);

/** `v1WalletParams` (also the optional `wallet` of `create_sub_organization`). */
export const walletParams = v.object({
  walletName: name,
  accounts: accountList,
  mnemonicLength: v.optional(mnemonicLength),
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
      return seedOfMnemonicRecord(mnemonic);
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
  let lastYield = performance.now();
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
    // Let other requests in every few milliseconds: a large request derives for seconds.
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
    const pair = deriveKeyPair(keys.seed, account.curve, account.path, {
      strictEd25519Paths: services.strictEd25519Paths,
      field: `${at}.path`,
      curveField: `${at}.curve`,
      cache: keys.nodes,
    });
    pair.privateKey.fill(0);
    // assertFormatAcceptsCurve above admitted only curves some format derives from (never P-256). The key
    // comes from the derivation, so it is a point of its curve and is not parsed again.
    const address = addressOfDerivedKey(account.curve, account.addressFormat, pair.secp256k1 ?? pair.publicKey);
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
      // SEC1 compressed on secp256k1, raw 32 bytes on ed25519: what encodeAccountPublicKey gives, unparsed. Hex
      // made natively is one flat string; a JS-built one is a rope of 33 pieces (1 KB) that the store keeps.
      publicKey: Buffer.from(pair.publicKey).toString("hex"),
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
  const length = (params.mnemonicLength ?? 12) as MnemonicLength;
  const mnemonic = utf8ToBytes(generateMnemonic(length, context.random));
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
