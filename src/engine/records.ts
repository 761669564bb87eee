/**
 * What the engine keeps in storage. These are internal shapes: the wire shapes (`v1Activity`, `v1User`,
 * ...) are rendered from them in `wire.ts`, so storage never depends on proto3-JSON conventions.
 * Times are milliseconds since the epoch. No record ever holds plaintext secret material.
 *
 * @module
 */
import type { RpcStatus } from "../errors.js";

/** Index key of the top-level organizations, which have no parent. */
export const ROOT_SCOPE = "";

export interface QuorumRecord {
  threshold: number;
  userIds: string[];
}

export interface FeatureRecord {
  name: string;
  value: string;
}

export interface OrganizationRecord {
  id: string;
  name: string;
  parentOrganizationId: string | null;
  rootQuorum: QuorumRecord;
  features: FeatureRecord[];
  /** Flags of `create_sub_organization` (`disableEmailRecovery`, ...), kept as given. */
  settings: Record<string, boolean>;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface UserRecord {
  id: string;
  organizationId: string;
  userName: string;
  userEmail: string | null;
  userPhoneNumber: string | null;
  tagIds: string[];
  createdAtMs: number;
  updatedAtMs: number;
}

/** `v1ApiKeyCurve`. */
export type ApiKeyCurve = "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  userId: string;
  apiKeyName: string;
  /** Lowercase hex as registered. */
  publicKey: string;
  curveType: ApiKeyCurve;
  /** `v1CredentialType`, e.g. `CREDENTIAL_TYPE_API_KEY_P256`. */
  credentialType: string;
  /** Decimal seconds after `createdAtMs`, or null for a key that never expires. */
  expirationSeconds: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface OauthProviderRecord {
  id: string;
  organizationId: string;
  userId: string;
  providerName: string;
  issuer: string;
  audience: string;
  subject: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * Where a credential lives: one record per (credential, organization), scoped by the credential, so that
 * a request naming a parent organization can find a credential held in one of its sub-organizations.
 */
export interface CredentialLocationRecord {
  /** `<credential scope>@<organizationId>`. */
  id: string;
  organizationId: string;
  kind: "apiKey" | "authenticator";
  /** The public key (API keys) or credential id (authenticators). */
  credential: string;
  /** The API key or authenticator id. */
  credentialRecordId: string;
}

export type VoteSelection = "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";

export interface VoteRecord {
  id: string;
  userId: string;
  selection: VoteSelection;
  /** The raw request body the voter stamped. */
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  createdAtMs: number;
}

/** `v1ActivityStatus`. */
export type ActivityStatus =
  | "ACTIVITY_STATUS_CREATED"
  | "ACTIVITY_STATUS_PENDING"
  | "ACTIVITY_STATUS_COMPLETED"
  | "ACTIVITY_STATUS_FAILED"
  | "ACTIVITY_STATUS_CONSENSUS_NEEDED"
  | "ACTIVITY_STATUS_REJECTED"
  | "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED";

export interface ActivityRecord {
  id: string;
  organizationId: string;
  status: ActivityStatus;
  type: string;
  /** The operation's path name, e.g. `create_wallet`. */
  operation: string;
  /** `{ <intentMember>: parameters }`. */
  intent: Record<string, unknown>;
  /** `{ <resultMember>: result }`, or null until the activity completes. */
  result: Record<string, unknown> | null;
  votes: VoteRecord[];
  fingerprint: string;
  failure: RpcStatus | null;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface WalletRecord {
  id: string;
  organizationId: string;
  walletName: string;
  /** The mnemonic, sealed for `wallet:<id>:mnemonic`. */
  sealedMnemonic: string;
  exported: boolean;
  imported: boolean;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface WalletAccountRecord {
  id: string;
  organizationId: string;
  walletId: string;
  curve: string;
  pathFormat: string;
  path: string;
  addressFormat: string;
  address: string;
  /** Lowercase hex: compressed for secp256k1, 32 bytes for ed25519. */
  publicKey: string;
  name: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** An account's entry in its organization's account list (accounts themselves are listed per wallet). */
export interface OrganizationAccountRecord {
  /** The wallet account id. */
  id: string;
  organizationId: string;
  walletId: string;
}

/** What an address in an organization belongs to: a wallet account or a private key. */
export interface AddressOwnerRecord {
  /** `addressRecordId(organizationId, address)`. */
  id: string;
  organizationId: string;
  kind: "walletAccount" | "privateKey";
  ownerId: string;
}

export interface AddressRecord {
  format: string;
  address: string;
}

export interface PrivateKeyRecord {
  id: string;
  organizationId: string;
  privateKeyName: string;
  curve: string;
  publicKey: string;
  /** The private key, sealed for `privateKey:<id>`. */
  sealedPrivateKey: string;
  addresses: AddressRecord[];
  tagIds: string[];
  exported: boolean;
  imported: boolean;
  createdAtMs: number;
  updatedAtMs: number;
}

export type TagType = "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";

export interface TagRecord {
  id: string;
  organizationId: string;
  tagName: string;
  tagType: TagType;
  createdAtMs: number;
  updatedAtMs: number;
}

/** Engine-wide settings kept with the data, e.g. the wrapped data key of the secret vault. */
export interface MetaRecord {
  id: string;
  value: string;
}

/** Collection name → record type. The engine's typed data layer is driven from this map. */
export interface Collections {
  organizations: OrganizationRecord;
  users: UserRecord;
  apiKeys: ApiKeyRecord;
  oauthProviders: OauthProviderRecord;
  credentialLocations: CredentialLocationRecord;
  activities: ActivityRecord;
  wallets: WalletRecord;
  walletAccounts: WalletAccountRecord;
  organizationAccounts: OrganizationAccountRecord;
  privateKeys: PrivateKeyRecord;
  addresses: AddressOwnerRecord;
  tags: TagRecord;
  meta: MetaRecord;
}

export type CollectionName = keyof Collections;
