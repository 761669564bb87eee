/**
 * What the engine keeps in storage. These are internal shapes: the wire shapes (`v1Activity`, `v1User`,
 * ...) are rendered from them in `wire.ts`, so storage never depends on proto3-JSON conventions.
 * Times are milliseconds since the epoch. No record ever holds plaintext secret material.
 *
 * @module
 */
import type { RpcStatus } from "../common/errors.js";
import type { DecisionOutcome, DecisionReason, Effect, Evaluation } from "../policy/types.js";

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
  /** For a log-in key issued under a session profile: that profile's id. */
  sessionProfileId?: string;
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

/** A passkey (WebAuthn credential) registered for a user. */
export interface AuthenticatorRecord {
  id: string;
  organizationId: string;
  userId: string;
  authenticatorName: string;
  /** base64url (no padding) of the raw credential id: the form `X-Stamp-Webauthn` names it in. */
  credentialId: string;
  /** base64url of the credential public key, exactly the COSE_Key bytes the authenticator wrote. */
  publicKeyCose: string;
  /** COSE algorithm of the key: -7 (ES256) or -257 (RS256). */
  alg: number;
  /** base64url of the 16-byte AAGUID. */
  aaguid: string;
  /** How the attestation statement was checked: `none` or `self` (packed self-attestation). */
  attestationType: string;
  /** `AUTHENTICATOR_TRANSPORT_*` values reported at registration. */
  transports: string[];
  /** A description of the kind of authenticator, inferred from its transports. */
  model: string;
  /** The highest sign counter seen so far (at registration, then after each accepted assertion). */
  signCount: number;
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

/** A vote's choice, as the wire spells it. */
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
  /** The credential that stamped the vote, for the `credentials` policy keyword and to act for the submitter later. */
  credential: VoteCredential;
  createdAtMs: number;
}

/** Which credential cast a vote (`StampCredential` without the stamp itself). */
export interface VoteCredential {
  kind: "apiKey" | "authenticator" | "inProcess" | "attested" | "session";
  /** The API key or authenticator id; null in-process. */
  id: string | null;
  /** `v1CredentialType`, e.g. `CREDENTIAL_TYPE_API_KEY_P256`. */
  type: string;
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
  /** The request envelope's `timestampMs`, verbatim (a decimal string of ms since the epoch). */
  timestampMs: string;
  failure: RpcStatus | null;
  createdAtMs: number;
  updatedAtMs: number;
  /**
   * The submitter's MFA policy this activity matched, and what has been proven of it (`get_mfa_status`);
   * absent when none matched. While it is unsatisfied the activity is `ACTIVITY_STATUS_AUTHENTICATORS_NEEDED`.
   */
  mfa?: MfaStatusRecord;
  /**
   * Approvers' MFA on this activity, one per approver whose MFA policy matched it: an approval counts towards
   * consensus only once its approver's steps are all proven. Absent when no approver's policy matched.
   */
  approverMfa?: MfaStatusRecord[];
}

/** The progress of one user's MFA policy on one activity (`v1MfaStatus`). */
export interface MfaStatusRecord {
  userId: string;
  mfaPolicyId: string;
  /** The policy's steps as they stood when the activity matched it. */
  requiredMethods: { any: MfaMethodRecord[] }[];
  /** The methods proven so far, in the order they were proven (the submission's own stamp first). */
  satisfiedMethods: MfaMethodRecord[];
}

/** A policy of an organization (swagger `v1Policy`); selector policies are kept as their equivalent condition. */
export interface PolicyRecord {
  id: string;
  organizationId: string;
  policyName: string;
  effect: Effect;
  /** Null when the policy has none (it then applies to every policy-governed activity). */
  condition: string | null;
  /** Null when the policy has none (it then accepts any approver). */
  consensus: string | null;
  /** Null when the policy has none (it is then always active). */
  time: string | null;
  notes: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * The version of an organization's set of policies (its id is the organization's): a fresh random token put in
 * the same transaction as every write of one of its policies, so that a decision can tell by one read whether
 * the policies it compiled before are still the organization's, in this process or any other sharing the
 * store. Absent for an organization none of whose policies was written since versions were kept.
 */
export interface PolicyVersionRecord {
  id: string;
  /** Never the same twice, even for two transactions of which one rolled back, or two stores. */
  version: string;
}

/** One method of an MFA step (`v1AuthenticationMethod`): a type, and optionally the one credential of it that counts. */
export interface MfaMethodRecord {
  type: string;
  /** The API key, passkey, OAuth provider or session profile that must be used; absent: any of `type`. */
  id?: string;
}

/** An MFA policy of a user (swagger `v1MfaPolicy`), kept in the user's scope. */
export interface MfaPolicyRecord {
  id: string;
  organizationId: string;
  userId: string;
  mfaPolicyName: string;
  /** A policy-language condition over the submitted activity; true means the policy applies. */
  condition: string;
  /** The ordered steps; each is satisfied by any one of its methods. */
  requiredAuthenticationMethods: { any: MfaMethodRecord[] }[];
  /** Evaluation order: lower first. */
  order: number;
  notes: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * A session profile (swagger `v1SessionProfile`): what sessions issued under it may do and how long they
 * last. Immutable once created; kept in its organization's scope, and seen by its sub-organizations too.
 */
export interface SessionProfileRecord {
  id: string;
  organizationId: string;
  sessionProfileName: string;
  /** A policy-language condition every request made with such a session must satisfy. */
  scope: string;
  /** Decimal seconds: the longest such a session lasts; null when the log-in decides. */
  expirationSeconds: string | null;
  notes: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * One decision about an activity, taken when it was submitted or at a later vote, with one evaluation per
 * policy (`get_policy_evaluations`, `explainActivity`). Kept in the activity's scope, in decision order.
 */
export interface PolicyEvaluationRecord {
  id: string;
  activityId: string;
  organizationId: string;
  /** The vote that prompted the decision: the submitter's for the first one. */
  voteId: string;
  /** `REJECTED` when an eligible voter rejected the activity. */
  outcome: DecisionOutcome | "REJECTED";
  /** The rule that settled it (`EXPLICIT_DENY`, `CONSENSUS_PENDING`, ...), or `REJECTED_BY_VOTE`. */
  reason: DecisionReason | "REJECTED_BY_VOTE" | "SUBMITTER_CANNOT_ACT";
  evaluations: Evaluation[];
  /**
   * The ALLOW policies that applied to the activity but whose consensus was not met yet: whom else a vote
   * can count. Empty unless the outcome is CONSENSUS_NEEDED.
   */
  openConsensus: { policyId: string; consensus: string }[];
  createdAtMs: number;
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
  /** Set once the account's private key was exported (`export_wallet_account`); deletion rules read it. */
  exported: boolean;
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

/**
 * The private key an `init_import_wallet` / `init_import_private_key` handed out a target for, waiting for the
 * matching import. One per user and kind (a newer init replaces it); the import consumes it.
 */
export interface ImportTargetRecord {
  /** `<kind>:<userId>`. */
  id: string;
  organizationId: string;
  userId: string;
  kind: "wallet" | "privateKey";
  /** The target's P-256 private key, sealed for `importTarget:<id>`. */
  sealedPrivateKey: string;
  createdAtMs: number;
}

/** A secret imported by `import_secrets` (swagger `v1SecretMetadata`, with the value sealed). */
export interface SecretRecord {
  id: string;
  organizationId: string;
  /** Unique in the organization when given; null when the import named none. */
  name: string | null;
  /** Policy-visible properties bound at import, in the order given; keys are unique. */
  staticProperties: { key: string; value: string }[];
  /** The secret's bytes, sealed for `secret:<id>`. */
  sealedSecret: string;
  createdAtMs: number;
}

/** A single-use ingress target of `init_import_secrets`, waiting for the `import_secrets` that names it. */
export interface SecretImportTargetRecord {
  /** The target's public key: 65-byte uncompressed P-256, lowercase hex. */
  id: string;
  organizationId: string;
  /** The user who asked for it; only that user's import may use it. */
  userId: string;
  /** The target's P-256 private key, sealed for `secretImportTarget:<id>`. */
  sealedPrivateKey: string;
  createdAtMs: number;
}

/** A subscription of a webhook endpoint (swagger `v1WebhookSubscriptionParams`). */
export interface WebhookSubscriptionRecord {
  /** `ACTIVITY_UPDATES`. */
  eventType: string;
  /** Null when none was given. */
  filtersJson: string | null;
  isActive: boolean;
}

/**
 * An OAuth 2.0 client of an organization (swagger `v1Oauth2Credential`): the client id and secret
 * `oauth2_authenticate` exchanges authorization codes with, at the provider's token endpoint the host configured.
 */
export interface Oauth2CredentialRecord {
  id: string;
  organizationId: string;
  /** `OAUTH2_PROVIDER_X` or `OAUTH2_PROVIDER_DISCORD`. */
  provider: string;
  clientId: string;
  /** The client secret, sealed for `oauth2Credential:<id>:clientSecret`. */
  sealedClientSecret: string;
  /** The envelope as the client sent it (encrypted to the engine's key), answered back as the hosted API does. */
  encryptedClientSecret: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * A smart contract interface of an organization (swagger `externaldatav1SmartContractInterface`): an Ethereum
 * ABI or a Solana IDL for one contract or program address, which decodes the calls of transactions to it for
 * policies.
 */
export interface SmartContractInterfaceRecord {
  id: string;
  organizationId: string;
  /** As given; looked up case-insensitively for Ethereum (`INDEX.smartContractInterfaceByAddress`). */
  smartContractAddress: string;
  /** The ABI or IDL JSON text, as given. */
  smartContractInterface: string;
  /** `SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM` or `SMART_CONTRACT_INTERFACE_TYPE_SOLANA`. */
  type: string;
  label: string;
  notes: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/** A webhook endpoint of an organization (swagger `v1WebhookEndpointData`). */
export interface WebhookEndpointRecord {
  id: string;
  organizationId: string;
  /** As given; checked against the engine's URL rules when set and again before each delivery. */
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: WebhookSubscriptionRecord[];
  createdAtMs: number;
  updatedAtMs: number;
}

/** Where a webhook event stands: owed, delivered, given up on, or cancelled with its endpoint. */
export type WebhookDeliveryStatus = "PENDING" | "DELIVERED" | "FAILED" | "CANCELLED";

/**
 * One event owed to one receiver (the outbox): written in the transaction that wrote the activity version
 * it reports, so it exists exactly when that version was committed.
 */
export interface WebhookDeliveryRecord {
  /** The event id (`X-Turnkey-Event-Id`), stable across attempts. */
  id: string;
  /** The organization whose endpoint or `FEATURE_NAME_WEBHOOK` receives it (`X-Turnkey-Organization-Id`). */
  organizationId: string;
  /** The endpoint, or null for the organization's legacy `FEATURE_NAME_WEBHOOK` URL. */
  endpointId: string | null;
  /** `ACTIVITY_UPDATES`. */
  eventType: string;
  /** The activity the event reports (or whose send it tracks); empty for balance events. */
  activityId: string;
  /** The exact body sent with every attempt: the activity as the wire renders it, at that version. */
  body: string;
  status: WebhookDeliveryStatus;
  /** Attempts made so far (an attempt cut short by `close()` is not one). */
  attempts: number;
  /** When the next attempt is due; null once the delivery is settled. */
  nextAttemptAtMs: number | null;
  /** Why the last attempt failed, or why the delivery was cancelled. */
  lastError: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * A delivery waiting in its receiving organization's queue (scoped by that organization): its id sorts by
 * due time, so the dispatcher takes an organization's due deliveries from the head of its queue.
 */
export interface WebhookQueueEntryRecord {
  /** `<due time, zero-padded>:<event id>`. */
  id: string;
  eventId: string;
  dueAtMs: number;
  /** The delivery's `organizationId`: the organization whose endpoint or legacy feature receives it. */
  organizationId: string;
}

/**
 * The head of one organization's delivery queue: one per organization with queued deliveries, in one
 * store-wide scope ordered by its earliest due time, so the dispatcher finds which organizations have work
 * due without reading their queues.
 */
export interface WebhookQueueHeadRecord {
  /** `<due time, zero-padded>:<organization id>`. */
  id: string;
  organizationId: string;
  dueAtMs: number;
}

/**
 * An entry of a single store-wide delivery queue, the layout of stores written by earlier builds. The
 * dispatcher moves such entries into the per-organization queues when it starts; nothing writes them.
 */
export interface StoreWideQueueRecord {
  /** `<due time, zero-padded>:<event id>`. */
  id: string;
  eventId: string;
  dueAtMs: number;
}

/** One delivery attempt and how it ended. */
export interface WebhookAttemptRecord {
  /** `<event id>:<attempt number, zero-padded>`. */
  id: string;
  eventId: string;
  /** 1 for the first attempt. */
  attempt: number;
  url: string;
  /** The `X-Turnkey-Timestamp` it was signed with. */
  timestampMs: number;
  /** The receiver's HTTP status, or null when none came (network error, timeout, refused destination). */
  statusCode: number | null;
  error: string | null;
  /** `RETRY`: a later attempt is scheduled; `FAILED`: no retry (terminal status, or attempts exhausted). */
  outcome: "DELIVERED" | "RETRY" | "FAILED";
  durationMs: number;
}

/** `OTP_TYPE_EMAIL` or `OTP_TYPE_SMS`: where a one-time code goes and which contact a token verifies. */
export type OtpType = "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS";

/**
 * A one-time code sent by `init_otp` / `init_otp_auth` (or the link of `email_auth`), waiting to be verified.
 * The code itself is sealed; wrong attempts are counted (in a transaction of their own, so a failed
 * verification still counts) and the record is consumed by the first right one.
 */
export interface OtpRecord {
  /** The `otpId` handed to the client. */
  id: string;
  organizationId: string;
  /** `verification` for `init_otp` (ends in a verification token), `auth` for `init_otp_auth` (a credential bundle). */
  purpose: "verification" | "auth";
  otpType: OtpType;
  /** The email address or E.164 phone number the code went to, as given. */
  contact: string;
  /** The code, sealed for `otp:<id>:code`. */
  sealedCode: string;
  /** The private key of the `otpEncryptionTargetBundle` (V2 verification), sealed for `otp:<id>:target`. */
  sealedTargetKey: string | null;
  /** Wrong codes tried so far. */
  attempts: number;
  expiresAtMs: number;
  /** Set when a right code was presented: the code is single-use. */
  consumed: boolean;
  createdAtMs: number;
  updatedAtMs: number;
}

/** That a verification token was used for `usage` (`USAGE_TYPE_SIGNUP` or `USAGE_TYPE_LOGIN`): each only once. */
export interface VerificationTokenUseRecord {
  /** `<token id>:<usage>`. */
  id: string;
  tokenId: string;
  usage: string;
  /** When the token itself expires: the record is useless after that. */
  tokenExpiresAtMs: number;
  createdAtMs: number;
}

/** A contact of an organization's user that a consumed verification token proved (`list_verified_suborgs`). */
export interface VerifiedContactRecord {
  /** `verifiedContactId(organizationId, otpType, contact)`. */
  id: string;
  organizationId: string;
  otpType: OtpType;
  contact: string;
  createdAtMs: number;
}

/** An invitation of an organization (`v1Invitation`). */
export interface InvitationRecord {
  id: string;
  organizationId: string;
  receiverUserName: string;
  receiverEmail: string;
  receiverUserTags: string[];
  accessType: string;
  senderUserId: string;
  status: "INVITATION_STATUS_CREATED" | "INVITATION_STATUS_ACCEPTED" | "INVITATION_STATUS_REVOKED";
  createdAtMs: number;
  updatedAtMs: number;
}

/** One rule of an IP allow-list: a normalized CIDR and its label (empty when none was given). */
export interface IpAllowlistRuleRecord {
  cidr: string;
  label: string;
  createdAtMs: number;
}

/**
 * An IP allow-list (`set_ip_allowlist`): the organization's own (`publicKey` null) or one of its API keys'.
 * Only organizations without a parent keep them; `domain/ip-allowlist.ts` says which one a request meets.
 */
export interface IpAllowlistRecord {
  /** `ipAllowlistRecordId(organizationId, publicKey)`: one list per organization and per API key. */
  id: string;
  organizationId: string;
  /** The API key's public key (lowercase hex), or null for the organization-level list. */
  publicKey: string | null;
  /** Whether the organization-level list is enforced; null for an API key's list (always enforced). */
  enabled: boolean | null;
  /** What a request whose source address cannot be told meets. */
  onEvaluationError: "ALLOW" | "DENY";
  rules: IpAllowlistRuleRecord[];
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * A billing organization's gas sponsorship limits (`upsert_gas_usage_config`), one per organization, as
 * configured; the sponsored sends are held to them and `get_gas_usage` reports them (`domain/gas-usage.ts`).
 */
export interface GasUsageConfigRecord {
  /** The `gasUsageConfigId`; kept across upserts. */
  id: string;
  organizationId: string;
  /** USD, a normalized decimal string: the limit per window of the organization and its sub-organizations together. */
  orgWindowLimitUsd: string;
  /** USD, a normalized decimal string: each sub-organization's limit per window. */
  subOrgWindowLimitUsd: string;
  /** The rolling window, 1 to 43200 minutes. */
  windowDurationMinutes: number;
  enabled: boolean;
  /** `solanaConfig.rentPrefundEnabled`. */
  solanaRentPrefundEnabled: boolean;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * What the host's sponsor paid for one sponsored send (engine option `gasStation`), counted against the gas
 * usage limits of the billing organization and of the sending organization.
 */
export interface GasSpendRecord {
  /** The send status id of the sponsored transaction. */
  id: string;
  /** The organization that sent it. */
  organizationId: string;
  /** Its billing (top-level) organization, whose records these are listed with. */
  billingOrganizationId: string;
  /** The most the send costs the sponsor, in millionths of a USD, as a decimal integer string. */
  microUsd: string;
  createdAtMs: number;
}

/** Engine-wide settings kept with the data, e.g. the wrapped data key of the secret vault. */
export interface MetaRecord {
  id: string;
  value: string;
}

/** Where a sent transaction stands (`txStatus`): broadcast and waiting, in a block, or failed (reverted, dropped). */
export type SendTransactionState = "BROADCASTED" | "INCLUDED" | "FAILED";

/**
 * One transaction an `*_send_transaction` activity broadcast (swagger `v1GetSendTransactionStatusResponse`),
 * kept current by the status tracker. Each write of it is also a `SEND_TRANSACTION_STATUS_UPDATES` event.
 */
export interface SendTransactionStatusRecord {
  /** The `sendTransactionStatusId` the activity's result carries. */
  id: string;
  organizationId: string;
  /** The activity that broadcast it. */
  activityId: string;
  /** The fingerprint of the activity that broadcast it. */
  fingerprint: string;
  caip2: string;
  status: SendTransactionState;
  /** EVM: the transaction hash. */
  eth: { txHash: string } | null;
  /** Solana: the transaction signature. */
  solana: { signature: string } | null;
  /** Block (EVM) or slot (Solana) the transaction landed in, once included. */
  blockNumber: string | null;
  /** Why it failed, in words (`txError`). */
  txError: string | null;
  /** Structured failure (swagger `v1TxError`): message and revert chain. */
  error: { [key: string]: unknown } | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** A send the status tracker still watches; deleted once the send is INCLUDED or FAILED. */
export interface PendingSendRecord {
  /** The send status id. */
  id: string;
  caip2: string;
  createdAtMs: number;
}

/**
 * An organization with at least one active endpoint subscribed to balance updates: the balance watcher reads
 * these (one store-wide list) to know whose wallet addresses to watch. Kept by the webhook endpoint activities.
 */
export interface BalanceWatchRecord {
  /** The organization that owns the endpoints. */
  id: string;
  createdAtMs: number;
}

/**
 * How far the balance watcher has read one chain (EVM: one cursor per chain) or one account of a Solana cluster
 * (one cursor per watched address and associated token account).
 */
export interface BalanceCursorRecord {
  /** EVM: the chain's CAIP-2 id (as the host configured it). Solana: `<chain id>/<account>`. */
  id: string;
  /** The last block (EVM) or the slot of the last signature (Solana) read for confirmed balance changes, decimal. */
  block: string;
  /** Solana: the newest signature of the account read whole (`until` of the next read); empty before any. */
  signature?: string;
  /**
   * Solana, while a read left older signatures unread (more came than one read takes): the oldest signature
   * read so far (`before` of the next read), and the newest one, which becomes {@link signature} once the
   * gap down to it is read.
   */
  gap?: { before: string; newest: string; slot: string };
  updatedAtMs: number;
}

/** Which way a balance moved: into the address, or out of it. */
export type BalanceOperation = "deposit" | "withdraw";

/**
 * One balance change of one wallet address (a transfer in or out, in one transaction), as the balance watcher
 * saw it. Each write of it is also a balance webhook event: `BALANCE_CONFIRMED_UPDATES` when written
 * `confirmed`, `BALANCE_FINALIZED_UPDATES` when it moves to `finalized`.
 */
export interface BalanceUpdateRecord {
  /** Derived from the chain, the transaction, the transfer's place in it and the address (so seen once). */
  id: string;
  /** The organization holding the address. */
  organizationId: string;
  /** The chain's canonical CAIP-2 id. */
  caip2: string;
  /** The chain id in the host's `chains` option (the backend the watcher reads). */
  chain: string;
  stage: "confirmed" | "finalized";
  operation: BalanceOperation;
  txHash: string;
  address: string;
  asset: { symbol: string; name: string; decimals: number; caip19: string; amount: string };
  block: { number: string; hash: string; timestampMs: number };
  createdAtMs: number;
  updatedAtMs: number;
}

/** A confirmed balance update still waiting for its block to be finalized. */
export interface PendingBalanceUpdateRecord {
  /** The balance update's id. */
  id: string;
  /** The chain id in the host's `chains` option. */
  chain: string;
  blockNumber: string;
  createdAtMs: number;
}

/** Collection name → record type. The engine's typed data layer is driven from this map. */
export interface Collections {
  organizations: OrganizationRecord;
  users: UserRecord;
  apiKeys: ApiKeyRecord;
  oauthProviders: OauthProviderRecord;
  authenticators: AuthenticatorRecord;
  credentialLocations: CredentialLocationRecord;
  activities: ActivityRecord;
  policies: PolicyRecord;
  policyVersions: PolicyVersionRecord;
  mfaPolicies: MfaPolicyRecord;
  sessionProfiles: SessionProfileRecord;
  policyEvaluations: PolicyEvaluationRecord;
  wallets: WalletRecord;
  walletAccounts: WalletAccountRecord;
  organizationAccounts: OrganizationAccountRecord;
  privateKeys: PrivateKeyRecord;
  addresses: AddressOwnerRecord;
  tags: TagRecord;
  importTargets: ImportTargetRecord;
  webhookEndpoints: WebhookEndpointRecord;
  smartContractInterfaces: SmartContractInterfaceRecord;
  oauth2Credentials: Oauth2CredentialRecord;
  webhookDeliveries: WebhookDeliveryRecord;
  webhookQueueEntries: WebhookQueueEntryRecord;
  webhookQueueHeads: WebhookQueueHeadRecord;
  webhookQueue: StoreWideQueueRecord;
  webhookAttempts: WebhookAttemptRecord;
  otps: OtpRecord;
  verificationTokenUses: VerificationTokenUseRecord;
  verifiedContacts: VerifiedContactRecord;
  invitations: InvitationRecord;
  meta: MetaRecord;
  sendTransactionStatuses: SendTransactionStatusRecord;
  pendingSends: PendingSendRecord;
  balanceWatches: BalanceWatchRecord;
  balanceCursors: BalanceCursorRecord;
  balanceUpdates: BalanceUpdateRecord;
  pendingBalanceUpdates: PendingBalanceUpdateRecord;
  gasUsageConfigs: GasUsageConfigRecord;
  gasSpends: GasSpendRecord;
  secrets: SecretRecord;
  secretImportTargets: SecretImportTargetRecord;
  ipAllowlists: IpAllowlistRecord;
}

export type CollectionName = keyof Collections;
