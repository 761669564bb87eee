/**
 * The parameters, results, requests and responses of the operations, written out field by field from the schemas
 * and handlers of the operation table. Generated from `src/operations/table.ts` by `npm run generate:operations`:
 * do not edit.
 *
 * @module
 */
import type {
  Activity,
  ApiKey,
  Authenticator,
  MfaPolicy,
  OauthProvider,
  Quorum,
  SessionProfile,
  Timestamp,
  User,
} from "../../../model/wire-types.js";

/** The `parameters` of `createSubOrganization` for `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8`. */
export interface CreateSubOrganizationParameters {
  disableEmailRecovery?: boolean;
  disableEmailAuth?: boolean;
  disableSmsAuth?: boolean;
  disableOtpEmailAuth?: boolean;
  verificationToken?: string;
  clientSignature?: {
    publicKey: string;
    scheme: "CLIENT_SIGNATURE_SCHEME_API_P256";
    message: string;
    signature: string;
  };
  subOrganizationName: string;
  rootUsers: {
    apiKeys: {
      apiKeyName: string;
      publicKey: string;
      curveType: "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";
      expirationSeconds?: string | number;
    }[];
    authenticators: {
      authenticatorName: string;
      challenge: string;
      attestation: {
        credentialId: string;
        clientDataJson: string;
        attestationObject: string;
        transports: (
          | "AUTHENTICATOR_TRANSPORT_BLE"
          | "AUTHENTICATOR_TRANSPORT_INTERNAL"
          | "AUTHENTICATOR_TRANSPORT_NFC"
          | "AUTHENTICATOR_TRANSPORT_USB"
          | "AUTHENTICATOR_TRANSPORT_HYBRID"
        )[];
      };
    }[];
    oauthProviders: {
      providerName: string;
      oidcToken?: string;
      oidcClaims?: {
        iss: string;
        sub: string;
        aud: string;
      };
    }[];
    userName: string;
    userEmail?: string;
    userPhoneNumber?: string;
  }[];
  rootQuorumThreshold: string | number;
  wallet?: {
    walletName: string;
    accounts: {
      curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
      pathFormat: "PATH_FORMAT_BIP32";
      path: string;
      addressFormat:
        | "ADDRESS_FORMAT_UNCOMPRESSED"
        | "ADDRESS_FORMAT_COMPRESSED"
        | "ADDRESS_FORMAT_ETHEREUM"
        | "ADDRESS_FORMAT_SOLANA"
        | "ADDRESS_FORMAT_COSMOS"
        | "ADDRESS_FORMAT_TRON"
        | "ADDRESS_FORMAT_SUI"
        | "ADDRESS_FORMAT_APTOS"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
        | "ADDRESS_FORMAT_SEI"
        | "ADDRESS_FORMAT_XLM"
        | "ADDRESS_FORMAT_DOGE_MAINNET"
        | "ADDRESS_FORMAT_DOGE_TESTNET"
        | "ADDRESS_FORMAT_TON_V3R2"
        | "ADDRESS_FORMAT_TON_V4R2"
        | "ADDRESS_FORMAT_TON_V5R1"
        | "ADDRESS_FORMAT_XRP"
        | "ADDRESS_FORMAT_SPARK_MAINNET"
        | "ADDRESS_FORMAT_SPARK_REGTEST";
      name?: string;
    }[];
    mnemonicLength?: string | number;
  };
}

/** The `parameters` of `createSubOrganization` for `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7`. */
export interface CreateSubOrganizationV7Parameters {
  disableEmailRecovery?: boolean;
  disableEmailAuth?: boolean;
  disableSmsAuth?: boolean;
  disableOtpEmailAuth?: boolean;
  verificationToken?: string;
  clientSignature?: {
    publicKey: string;
    scheme: "CLIENT_SIGNATURE_SCHEME_API_P256";
    message: string;
    signature: string;
  };
  subOrganizationName: string;
  rootUsers: {
    apiKeys: {
      apiKeyName: string;
      publicKey: string;
      curveType: "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";
      expirationSeconds?: string | number;
    }[];
    authenticators: {
      authenticatorName: string;
      challenge: string;
      attestation: {
        credentialId: string;
        clientDataJson: string;
        attestationObject: string;
        transports: (
          | "AUTHENTICATOR_TRANSPORT_BLE"
          | "AUTHENTICATOR_TRANSPORT_INTERNAL"
          | "AUTHENTICATOR_TRANSPORT_NFC"
          | "AUTHENTICATOR_TRANSPORT_USB"
          | "AUTHENTICATOR_TRANSPORT_HYBRID"
        )[];
      };
    }[];
    oauthProviders: {
      providerName: string;
      oidcToken: string;
    }[];
    userName: string;
    userEmail?: string;
    userPhoneNumber?: string;
  }[];
  rootQuorumThreshold: string | number;
  wallet?: {
    walletName: string;
    accounts: {
      curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
      pathFormat: "PATH_FORMAT_BIP32";
      path: string;
      addressFormat:
        | "ADDRESS_FORMAT_UNCOMPRESSED"
        | "ADDRESS_FORMAT_COMPRESSED"
        | "ADDRESS_FORMAT_ETHEREUM"
        | "ADDRESS_FORMAT_SOLANA"
        | "ADDRESS_FORMAT_COSMOS"
        | "ADDRESS_FORMAT_TRON"
        | "ADDRESS_FORMAT_SUI"
        | "ADDRESS_FORMAT_APTOS"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
        | "ADDRESS_FORMAT_SEI"
        | "ADDRESS_FORMAT_XLM"
        | "ADDRESS_FORMAT_DOGE_MAINNET"
        | "ADDRESS_FORMAT_DOGE_TESTNET"
        | "ADDRESS_FORMAT_TON_V3R2"
        | "ADDRESS_FORMAT_TON_V4R2"
        | "ADDRESS_FORMAT_TON_V5R1"
        | "ADDRESS_FORMAT_XRP"
        | "ADDRESS_FORMAT_SPARK_MAINNET"
        | "ADDRESS_FORMAT_SPARK_REGTEST";
      name?: string;
    }[];
    mnemonicLength?: string | number;
  };
}

/** What `activity.result.createSubOrganizationResultV8` or `activity.result.createSubOrganizationResultV7` holds once `createSubOrganization` completes. */
export interface CreateSubOrganizationResult {
  rootUserIds: string[];
  wallet?: {
    walletId: string;
    addresses: string[];
  };
  subOrganizationId: string;
}

/** The request of `getWhoami` (`POST /public/v1/query/whoami`). */
export interface GetWhoamiRequest {
  organizationId: string;
}

/** What `getWhoami` answers. */
export interface GetWhoamiResponse {
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
}

/** The request of `getOrganization` (`POST /public/v1/query/get_organization`). */
export interface GetOrganizationRequest {
  organizationId: string;
}

/** What `getOrganization` answers. */
export interface GetOrganizationResponse {
  organizationData: {
    organizationId: string;
    name: string;
    users: User[];
    policies: {
      time?: string;
      policyId: string;
      policyName: string;
      effect: "EFFECT_ALLOW" | "EFFECT_DENY";
      createdAt: Timestamp;
      updatedAt: Timestamp;
      notes: string;
      consensus: string;
      condition: string;
    }[];
    privateKeys: {
      privateKeyId: string;
      publicKey: string;
      privateKeyName: string;
      curve: string;
      addresses: {
        format: string;
        address: string;
      }[];
      privateKeyTags: string[];
      createdAt: Timestamp;
      updatedAt: Timestamp;
      exported: boolean;
      imported: boolean;
    }[];
    invitations: {
      invitationId: string;
      receiverUserName: string;
      receiverEmail: string;
      receiverUserTags: string[];
      accessType: string;
      status: "INVITATION_STATUS_CREATED" | "INVITATION_STATUS_ACCEPTED" | "INVITATION_STATUS_REVOKED";
      createdAt: Timestamp;
      updatedAt: Timestamp;
      senderUserId: string;
    }[];
    tags: {
      tagId: string;
      tagName: string;
      tagType: "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";
      createdAt: Timestamp;
      updatedAt: Timestamp;
    }[];
    rootQuorum: Quorum;
    features: {
      name: string;
      value: string;
    }[];
    wallets: {
      walletId: string;
      walletName: string;
      createdAt: Timestamp;
      updatedAt: Timestamp;
      exported: boolean;
      imported: boolean;
    }[];
    smartContractInterfaceReferences: never[];
  };
}

/** The request of `getSubOrgIds` (`POST /public/v1/query/list_suborgs`). */
export interface GetSubOrgIdsRequest {
  organizationId: string;
  filterType?: "NAME" | "USERNAME" | "EMAIL" | "PHONE_NUMBER" | "PUBLIC_KEY" | "CREDENTIAL_ID" | "OIDC_TOKEN";
  filterValue?: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `getSubOrgIds` answers. */
export interface GetSubOrgIdsResponse {
  organizationIds: string[];
}

/** The `parameters` of `updateOrganizationName` for `ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME`. */
export interface UpdateOrganizationNameParameters {
  organizationName: string;
}

/** What `activity.result.updateOrganizationNameResult` holds once `updateOrganizationName` completes. */
export interface UpdateOrganizationNameResult {
  organizationId: string;
  organizationName: string;
}

/** The request of `getOrganizationConfigs` (`POST /public/v1/query/get_organization_configs`). */
export interface GetOrganizationConfigsRequest {
  organizationId: string;
}

/** What `getOrganizationConfigs` answers. */
export interface GetOrganizationConfigsResponse {
  configs: {
    features: {
      name: string;
      value: string;
    }[];
    quorum: {
      threshold: number;
      userIds: string[];
    };
  };
}

/** The `parameters` of `setIpAllowlist` for `ACTIVITY_TYPE_SET_IP_ALLOWLIST`. */
export interface SetIpAllowlistParameters {
  publicKey?: string;
  enabled?: boolean;
  rules?: {
    cidr: string;
    label?: string;
  }[];
  onEvaluationError?: string;
}

/** What `activity.result.setIpAllowlistResult` holds once `setIpAllowlist` completes. */
export type SetIpAllowlistResult = {};

/** The `parameters` of `removeIpAllowlist` for `ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST`. */
export interface RemoveIpAllowlistParameters {
  publicKey?: string;
}

/** What `activity.result.removeIpAllowlistResult` holds once `removeIpAllowlist` completes. */
export type RemoveIpAllowlistResult = {};

/** The request of `getIpAllowlist` (`POST /public/v1/query/get_ip_allowlist`). */
export interface GetIpAllowlistRequest {
  organizationId: string;
  publicKey?: string;
}

/** What `getIpAllowlist` answers. */
export interface GetIpAllowlistResponse {
  allowlist: {
    onEvaluationError?: "ALLOW" | "DENY";
    enabled?: boolean;
    publicKey?: string;
    organizationId: string;
    rules: {
      cidr: string;
      label: string;
      createdAt: string;
    }[];
  };
}

/** The `parameters` of `createInvitations` for `ACTIVITY_TYPE_CREATE_INVITATIONS`. */
export interface CreateInvitationsParameters {
  invitations: {
    receiverUserName: string;
    receiverUserEmail: string;
    receiverUserTags: string[];
    accessType: "ACCESS_TYPE_WEB" | "ACCESS_TYPE_API" | "ACCESS_TYPE_ALL";
    senderUserId: string;
  }[];
}

/** What `activity.result.createInvitationsResult` holds once `createInvitations` completes. */
export interface CreateInvitationsResult {
  invitationIds: string[];
}

/** The `parameters` of `deleteInvitation` for `ACTIVITY_TYPE_DELETE_INVITATION`. */
export interface DeleteInvitationParameters {
  invitationId: string;
}

/** What `activity.result.deleteInvitationResult` holds once `deleteInvitation` completes. */
export interface DeleteInvitationResult {
  invitationId: string;
}

/** The request of `getActivity` (`POST /public/v1/query/get_activity`). */
export interface GetActivityRequest {
  organizationId: string;
  activityId: string;
}

/** What `getActivity` answers. */
export interface GetActivityResponse {
  activity: Activity;
}

/** The request of `getActivities` (`POST /public/v1/query/list_activities`). */
export interface GetActivitiesRequest {
  organizationId: string;
  filterByStatus?: (
    | "ACTIVITY_STATUS_CREATED"
    | "ACTIVITY_STATUS_PENDING"
    | "ACTIVITY_STATUS_COMPLETED"
    | "ACTIVITY_STATUS_FAILED"
    | "ACTIVITY_STATUS_CONSENSUS_NEEDED"
    | "ACTIVITY_STATUS_REJECTED"
    | "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED"
  )[];
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
  filterByType?: string[];
}

/** What `getActivities` answers. */
export interface GetActivitiesResponse {
  activities: Activity[];
}

/** The `parameters` of `createWallet` for `ACTIVITY_TYPE_CREATE_WALLET`. */
export interface CreateWalletParameters {
  walletName: string;
  accounts: {
    curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
    pathFormat: "PATH_FORMAT_BIP32";
    path: string;
    addressFormat:
      | "ADDRESS_FORMAT_UNCOMPRESSED"
      | "ADDRESS_FORMAT_COMPRESSED"
      | "ADDRESS_FORMAT_ETHEREUM"
      | "ADDRESS_FORMAT_SOLANA"
      | "ADDRESS_FORMAT_COSMOS"
      | "ADDRESS_FORMAT_TRON"
      | "ADDRESS_FORMAT_SUI"
      | "ADDRESS_FORMAT_APTOS"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
      | "ADDRESS_FORMAT_SEI"
      | "ADDRESS_FORMAT_XLM"
      | "ADDRESS_FORMAT_DOGE_MAINNET"
      | "ADDRESS_FORMAT_DOGE_TESTNET"
      | "ADDRESS_FORMAT_TON_V3R2"
      | "ADDRESS_FORMAT_TON_V4R2"
      | "ADDRESS_FORMAT_TON_V5R1"
      | "ADDRESS_FORMAT_XRP"
      | "ADDRESS_FORMAT_SPARK_MAINNET"
      | "ADDRESS_FORMAT_SPARK_REGTEST";
    name?: string;
  }[];
  mnemonicLength?: string | number;
}

/** What `activity.result.createWalletResult` holds once `createWallet` completes. */
export interface CreateWalletResult {
  walletId: string;
  addresses: string[];
}

/** The `parameters` of `createWalletAccounts` for `ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS`. */
export interface CreateWalletAccountsParameters {
  walletId: string;
  accounts: {
    curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
    pathFormat: "PATH_FORMAT_BIP32";
    path: string;
    addressFormat:
      | "ADDRESS_FORMAT_UNCOMPRESSED"
      | "ADDRESS_FORMAT_COMPRESSED"
      | "ADDRESS_FORMAT_ETHEREUM"
      | "ADDRESS_FORMAT_SOLANA"
      | "ADDRESS_FORMAT_COSMOS"
      | "ADDRESS_FORMAT_TRON"
      | "ADDRESS_FORMAT_SUI"
      | "ADDRESS_FORMAT_APTOS"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
      | "ADDRESS_FORMAT_SEI"
      | "ADDRESS_FORMAT_XLM"
      | "ADDRESS_FORMAT_DOGE_MAINNET"
      | "ADDRESS_FORMAT_DOGE_TESTNET"
      | "ADDRESS_FORMAT_TON_V3R2"
      | "ADDRESS_FORMAT_TON_V4R2"
      | "ADDRESS_FORMAT_TON_V5R1"
      | "ADDRESS_FORMAT_XRP"
      | "ADDRESS_FORMAT_SPARK_MAINNET"
      | "ADDRESS_FORMAT_SPARK_REGTEST";
    name?: string;
  }[];
  persist?: boolean;
}

/** What `activity.result.createWalletAccountsResult` holds once `createWalletAccounts` completes. */
export interface CreateWalletAccountsResult {
  addresses: string[];
}

/** The `parameters` of `updateWallet` for `ACTIVITY_TYPE_UPDATE_WALLET`. */
export interface UpdateWalletParameters {
  walletId: string;
  walletName?: string;
}

/** What `activity.result.updateWalletResult` holds once `updateWallet` completes. */
export interface UpdateWalletResult {
  walletId: string;
}

/** The request of `getWallet` (`POST /public/v1/query/get_wallet`). */
export interface GetWalletRequest {
  organizationId: string;
  walletId: string;
}

/** What `getWallet` answers. */
export interface GetWalletResponse {
  wallet: {
    walletId: string;
    walletName: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
    exported: boolean;
    imported: boolean;
  };
}

/** The request of `getWallets` (`POST /public/v1/query/list_wallets`). */
export interface GetWalletsRequest {
  organizationId: string;
}

/** What `getWallets` answers. */
export interface GetWalletsResponse {
  wallets: {
    walletId: string;
    walletName: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
    exported: boolean;
    imported: boolean;
  }[];
}

/** The request of `getWalletAccount` (`POST /public/v1/query/get_wallet_account`). */
export interface GetWalletAccountRequest {
  organizationId: string;
  walletId: string;
  address?: string;
  path?: string;
}

/** What `getWalletAccount` answers. */
export interface GetWalletAccountResponse {
  account: {
    walletDetails?: {
      walletId: string;
      walletName: string;
      createdAt: Timestamp;
      updatedAt: Timestamp;
      exported: boolean;
      imported: boolean;
    };
    name?: string;
    walletAccountId: string;
    organizationId: string;
    walletId: string;
    curve: string;
    pathFormat: string;
    path: string;
    addressFormat: string;
    address: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
    publicKey: string;
  };
}

/** The request of `getWalletAccounts` (`POST /public/v1/query/list_wallet_accounts`). */
export interface GetWalletAccountsRequest {
  organizationId: string;
  walletId?: string;
  includeWalletDetails?: boolean;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `getWalletAccounts` answers. */
export interface GetWalletAccountsResponse {
  accounts: {
    walletDetails?: {
      walletId: string;
      walletName: string;
      createdAt: Timestamp;
      updatedAt: Timestamp;
      exported: boolean;
      imported: boolean;
    };
    name?: string;
    walletAccountId: string;
    organizationId: string;
    walletId: string;
    curve: string;
    pathFormat: string;
    path: string;
    addressFormat: string;
    address: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
    publicKey: string;
  }[];
}

/** The `parameters` of `createPrivateKeys` for `ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2`. */
export interface CreatePrivateKeysParameters {
  privateKeys: {
    privateKeyName: string;
    curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
    privateKeyTags: string[];
    addressFormats: (
      | "ADDRESS_FORMAT_UNCOMPRESSED"
      | "ADDRESS_FORMAT_COMPRESSED"
      | "ADDRESS_FORMAT_ETHEREUM"
      | "ADDRESS_FORMAT_SOLANA"
      | "ADDRESS_FORMAT_COSMOS"
      | "ADDRESS_FORMAT_TRON"
      | "ADDRESS_FORMAT_SUI"
      | "ADDRESS_FORMAT_APTOS"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
      | "ADDRESS_FORMAT_SEI"
      | "ADDRESS_FORMAT_XLM"
      | "ADDRESS_FORMAT_DOGE_MAINNET"
      | "ADDRESS_FORMAT_DOGE_TESTNET"
      | "ADDRESS_FORMAT_TON_V3R2"
      | "ADDRESS_FORMAT_TON_V4R2"
      | "ADDRESS_FORMAT_TON_V5R1"
      | "ADDRESS_FORMAT_XRP"
      | "ADDRESS_FORMAT_SPARK_MAINNET"
      | "ADDRESS_FORMAT_SPARK_REGTEST"
    )[];
  }[];
}

/** What `activity.result.createPrivateKeysResultV2` holds once `createPrivateKeys` completes. */
export interface CreatePrivateKeysResult {
  privateKeys: {
    privateKeyId: string;
    addresses: {
      format:
        | "ADDRESS_FORMAT_UNCOMPRESSED"
        | "ADDRESS_FORMAT_COMPRESSED"
        | "ADDRESS_FORMAT_ETHEREUM"
        | "ADDRESS_FORMAT_SOLANA"
        | "ADDRESS_FORMAT_COSMOS"
        | "ADDRESS_FORMAT_TRON"
        | "ADDRESS_FORMAT_SUI"
        | "ADDRESS_FORMAT_APTOS"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
        | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
        | "ADDRESS_FORMAT_SEI"
        | "ADDRESS_FORMAT_XLM"
        | "ADDRESS_FORMAT_DOGE_MAINNET"
        | "ADDRESS_FORMAT_DOGE_TESTNET"
        | "ADDRESS_FORMAT_TON_V3R2"
        | "ADDRESS_FORMAT_TON_V4R2"
        | "ADDRESS_FORMAT_TON_V5R1"
        | "ADDRESS_FORMAT_XRP"
        | "ADDRESS_FORMAT_SPARK_MAINNET"
        | "ADDRESS_FORMAT_SPARK_REGTEST";
      address: string;
    }[];
  }[];
}

/** The `parameters` of `createPrivateKeyTag` for `ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG`. */
export interface CreatePrivateKeyTagParameters {
  privateKeyTagName: string;
  privateKeyIds: string[];
}

/** What `activity.result.createPrivateKeyTagResult` holds once `createPrivateKeyTag` completes. */
export interface CreatePrivateKeyTagResult {
  privateKeyTagId: string;
  privateKeyIds: string[];
}

/** The `parameters` of `updatePrivateKeyTag` for `ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG`. */
export interface UpdatePrivateKeyTagParameters {
  privateKeyTagId: string;
  newPrivateKeyTagName?: string;
  addPrivateKeyIds: string[];
  removePrivateKeyIds: string[];
}

/** What `activity.result.updatePrivateKeyTagResult` holds once `updatePrivateKeyTag` completes. */
export interface UpdatePrivateKeyTagResult {
  privateKeyTagId: string;
}

/** The `parameters` of `deletePrivateKeyTags` for `ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS`. */
export interface DeletePrivateKeyTagsParameters {
  privateKeyTagIds: string[];
}

/** What `activity.result.deletePrivateKeyTagsResult` holds once `deletePrivateKeyTags` completes. */
export interface DeletePrivateKeyTagsResult {
  privateKeyTagIds: string[];
  privateKeyIds: string[];
}

/** The request of `getPrivateKey` (`POST /public/v1/query/get_private_key`). */
export interface GetPrivateKeyRequest {
  organizationId: string;
  privateKeyId: string;
}

/** What `getPrivateKey` answers. */
export interface GetPrivateKeyResponse {
  privateKey: {
    privateKeyId: string;
    publicKey: string;
    privateKeyName: string;
    curve: string;
    addresses: {
      format: string;
      address: string;
    }[];
    privateKeyTags: string[];
    createdAt: Timestamp;
    updatedAt: Timestamp;
    exported: boolean;
    imported: boolean;
  };
}

/** The request of `getPrivateKeys` (`POST /public/v1/query/list_private_keys`). */
export interface GetPrivateKeysRequest {
  organizationId: string;
}

/** What `getPrivateKeys` answers. */
export interface GetPrivateKeysResponse {
  privateKeys: {
    privateKeyId: string;
    publicKey: string;
    privateKeyName: string;
    curve: string;
    addresses: {
      format: string;
      address: string;
    }[];
    privateKeyTags: string[];
    createdAt: Timestamp;
    updatedAt: Timestamp;
    exported: boolean;
    imported: boolean;
  }[];
}

/** The request of `listPrivateKeyTags` (`POST /public/v1/query/list_private_key_tags`). */
export interface ListPrivateKeyTagsRequest {
  organizationId: string;
}

/** What `listPrivateKeyTags` answers. */
export interface ListPrivateKeyTagsResponse {
  privateKeyTags: {
    tagId: string;
    tagName: string;
    tagType: "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";
    createdAt: Timestamp;
    updatedAt: Timestamp;
  }[];
}

/** The `parameters` of `signRawPayload` for `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2`. */
export interface SignRawPayloadParameters {
  signWith: string;
  payload: string;
  encoding:
    | "PAYLOAD_ENCODING_HEXADECIMAL"
    | "PAYLOAD_ENCODING_TEXT_UTF8"
    | "PAYLOAD_ENCODING_EIP712"
    | "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION";
  hashFunction:
    | "HASH_FUNCTION_NO_OP"
    | "HASH_FUNCTION_SHA256"
    | "HASH_FUNCTION_KECCAK256"
    | "HASH_FUNCTION_NOT_APPLICABLE";
}

/** What `activity.result.signRawPayloadResult` holds once `signRawPayload` completes. */
export interface SignRawPayloadResult {
  /** 64 lowercase hex digits without `0x`: ECDSA r, or the first half (R) of an Ed25519 or BIP340 signature. */
  r: string;
  /** 64 lowercase hex digits without `0x`: ECDSA s (low-S), or the second half (S) of an Ed25519 or BIP340 signature. */
  s: string;
  /** `"00"` or `"01"`: the secp256k1 ECDSA recovery id; always `"00"` for Ed25519 ("to match what Turnkey does") and BIP340. */
  v: string;
}

/** The `parameters` of `signRawPayloads` for `ACTIVITY_TYPE_SIGN_RAW_PAYLOADS`. */
export interface SignRawPayloadsParameters {
  signWith: string;
  payloads: string[];
  encoding:
    | "PAYLOAD_ENCODING_HEXADECIMAL"
    | "PAYLOAD_ENCODING_TEXT_UTF8"
    | "PAYLOAD_ENCODING_EIP712"
    | "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION";
  hashFunction:
    | "HASH_FUNCTION_NO_OP"
    | "HASH_FUNCTION_SHA256"
    | "HASH_FUNCTION_KECCAK256"
    | "HASH_FUNCTION_NOT_APPLICABLE";
}

/** What `activity.result.signRawPayloadsResult` holds once `signRawPayloads` completes. */
export interface SignRawPayloadsResult {
  signatures: {
    /** 64 lowercase hex digits without `0x`: ECDSA r, or the first half (R) of an Ed25519 or BIP340 signature. */
    r: string;
    /** 64 lowercase hex digits without `0x`: ECDSA s (low-S), or the second half (S) of an Ed25519 or BIP340 signature. */
    s: string;
    /** `"00"` or `"01"`: the secp256k1 ECDSA recovery id; always `"00"` for Ed25519 ("to match what Turnkey does") and BIP340. */
    v: string;
  }[];
}

/** The `parameters` of `signTransaction` for `ACTIVITY_TYPE_SIGN_TRANSACTION_V2`. */
export interface SignTransactionParameters {
  signWith: string;
  unsignedTransaction: string;
  type:
    | "TRANSACTION_TYPE_ETHEREUM"
    | "TRANSACTION_TYPE_SOLANA"
    | "TRANSACTION_TYPE_TRON"
    | "TRANSACTION_TYPE_BITCOIN"
    | "TRANSACTION_TYPE_TEMPO";
}

/** What `activity.result.signTransactionResult` holds once `signTransaction` completes. */
export interface SignTransactionResult {
  signedTransaction: string;
}

/** The `parameters` of `ethSendTransaction` for `ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2`. */
export interface EthSendTransactionParameters {
  calls: {
    to: string;
    value?: string;
    data?: string;
  }[];
  from: string;
  caip2: string;
  sponsor?: boolean;
  nonce?: string;
  gasLimit?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  deadline?: string;
  gasStationNonce?: string;
}

/** The `parameters` of `ethSendTransaction` for `ACTIVITY_TYPE_ETH_SEND_TRANSACTION`. */
export interface EthSendTransactionV1Parameters {
  to: string;
  value?: string;
  data?: string;
  from: string;
  caip2: string;
  sponsor?: boolean;
  nonce?: string;
  gasLimit?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  deadline?: string;
  gasStationNonce?: string;
}

/** What `activity.result.ethSendTransactionResultV2` or `activity.result.ethSendTransactionResult` holds once `ethSendTransaction` completes. */
export interface EthSendTransactionResult {
  sendTransactionStatusId: string;
}

/** The `parameters` of `ethSendRawTransaction` for `ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION`. */
export interface EthSendRawTransactionParameters {
  signedTransaction: string;
  caip2: string;
}

/** What `activity.result.ethSendRawTransactionResult` holds once `ethSendRawTransaction` completes. */
export interface EthSendRawTransactionResult {
  transactionHash: string;
}

/** The `parameters` of `ethUndelegate7702` for `ACTIVITY_TYPE_ETH_UNDELEGATE_7702`. */
export interface EthUndelegate7702Parameters {
  from: string;
  caip2: string;
  nonce?: string;
  gasLimit?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
}

/** What `activity.result.ethUndelegate7702Result` holds once `ethUndelegate7702` completes. */
export interface EthUndelegate7702Result {
  sendTransactionStatusId: string;
}

/** The `parameters` of `solSendTransaction` for `ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2`. */
export interface SolSendTransactionParameters {
  signWiths: string[];
  unsignedTransaction: string;
  sponsor?: boolean;
  caip2: string;
  recentBlockhash?: string;
}

/** The `parameters` of `solSendTransaction` for `ACTIVITY_TYPE_SOL_SEND_TRANSACTION`. */
export interface SolSendTransactionV1Parameters {
  signWith: string;
  unsignedTransaction: string;
  sponsor?: boolean;
  caip2: string;
  recentBlockhash?: string;
}

/** What `activity.result.solSendTransactionResultV2` or `activity.result.solSendTransactionResult` holds once `solSendTransaction` completes. */
export interface SolSendTransactionResult {
  sendTransactionStatusId: string;
}

/** The request of `getSendTransactionStatus` (`POST /public/v1/query/get_send_transaction_status`). */
export interface GetSendTransactionStatusRequest {
  organizationId: string;
  sendTransactionStatusId: string;
}

/** What `getSendTransactionStatus` answers. */
export interface GetSendTransactionStatusResponse {
  txStatus: string;
  eth?: {
    txHash: string;
  };
  solana?: {
    signature: string;
  };
  txError?: string;
  error?: {
    [key: string]: unknown;
  };
}

/** The request of `getNonces` (`POST /public/v1/query/get_nonces`). */
export interface GetNoncesRequest {
  organizationId: string;
  address: string;
  caip2: string;
  nonce?: boolean;
  gasStationNonce?: boolean;
}

/** What `getNonces` answers. */
export interface GetNoncesResponse {
  gasStationNonce?: string;
  nonce?: string;
}

/** The request of `getWalletAddressBalances` (`POST /public/v1/query/get_wallet_address_balances`). */
export interface GetWalletAddressBalancesRequest {
  organizationId: string;
  address: string;
  caip2: string;
}

/** What `getWalletAddressBalances` answers. */
export interface GetWalletAddressBalancesResponse {
  balances: {
    balance: string;
    display: {
      crypto: string;
    };
    name?: string;
    decimals: number;
    symbol?: string;
    caip19: string;
  }[];
}

/** The request of `listSupportedAssets` (`POST /public/v1/query/list_supported_assets`). */
export interface ListSupportedAssetsRequest {
  organizationId: string;
  caip2: string;
}

/** What `listSupportedAssets` answers. */
export interface ListSupportedAssetsResponse {
  assets: {
    name?: string;
    decimals: number;
    symbol?: string;
    caip19: string;
  }[];
}

/** The request of `listEthTransactionHistory` (`POST /public/v1/query/list_eth_transaction_history`). */
export interface ListEthTransactionHistoryRequest {
  organizationId: string;
  address: string;
  caip2: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `listEthTransactionHistory` answers. */
export interface ListEthTransactionHistoryResponse {
  transactions: {
    turnkey?: {
      sponsored: boolean;
      activityFingerprint: string;
      submittedAt: string;
    };
    fee: {
      amount: string;
      caip19: string;
    };
    transfers: {
      asset?: {
        caip19: string;
        symbol: string;
        name: string;
        decimals: number;
      };
      display?: {
        crypto: string;
      };
      direction: "IN" | "OUT";
      amount: string;
      counterparty: string;
    }[];
    to?: string;
    transactionHash: string;
    block: {
      number: string;
      hash: string;
      timestamp: string;
    };
    status: string;
    origin: string;
    from: string;
  }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor?: string;
    endCursor?: string;
  };
}

/** The request of `listSolTransactionHistory` (`POST /public/v1/query/list_sol_transaction_history`). */
export interface ListSolTransactionHistoryRequest {
  organizationId: string;
  address: string;
  caip2: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `listSolTransactionHistory` answers. */
export interface ListSolTransactionHistoryResponse {
  transactions: {
    turnkey?: {
      sponsored: boolean;
      activityFingerprint: string;
      submittedAt: string;
    };
    signature: string;
    block: {
      number: string;
      hash: string;
      timestamp: string;
    };
    status: string;
    origin: string;
    feePayer: string;
    signers: readonly {
      address: string;
      writable: boolean;
    }[];
    fee: {
      amount: string;
      caip19: string;
    };
    transfers: {
      asset?: {
        caip19: string;
        symbol: string;
        name: string;
        decimals: number;
      };
      display?: {
        crypto: string;
      };
      direction: "IN" | "OUT";
      amount: string;
      counterparty: string;
    }[];
  }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor?: string;
    endCursor?: string;
  };
}

/** The request of `getGasUsage` (`POST /public/v1/query/get_gas_usage`). */
export interface GetGasUsageRequest {
  organizationId: string;
}

/** What `getGasUsage` answers. */
export interface GetGasUsageResponse {
  windowDurationMinutes: number;
  windowLimitUsd: string;
  usageUsd: string;
}

/** The `parameters` of `upsertGasUsageConfig` for `ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG`. */
export interface UpsertGasUsageConfigParameters {
  orgWindowLimitUsd: string;
  subOrgWindowLimitUsd: string;
  windowDurationMinutes: string;
  enabled?: boolean;
  solanaConfig?: {
    rentPrefundEnabled?: boolean;
  };
}

/** What `activity.result.upsertGasUsageConfigResult` holds once `upsertGasUsageConfig` completes. */
export interface UpsertGasUsageConfigResult {
  gasUsageConfigId: string;
}

/** The `parameters` of `createOauth2Credential` for `ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL`. */
export interface CreateOauth2CredentialParameters {
  provider: "OAUTH2_PROVIDER_X" | "OAUTH2_PROVIDER_DISCORD";
  clientId: string;
  encryptedClientSecret: string;
}

/** What `activity.result.createOauth2CredentialResult` holds once `createOauth2Credential` completes. */
export interface CreateOauth2CredentialResult {
  oauth2CredentialId: string;
}

/** The `parameters` of `updateOauth2Credential` for `ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL`. */
export interface UpdateOauth2CredentialParameters {
  oauth2CredentialId: string;
  provider: "OAUTH2_PROVIDER_X" | "OAUTH2_PROVIDER_DISCORD";
  clientId: string;
  encryptedClientSecret: string;
}

/** What `activity.result.updateOauth2CredentialResult` holds once `updateOauth2Credential` completes. */
export interface UpdateOauth2CredentialResult {
  oauth2CredentialId: string;
}

/** The `parameters` of `deleteOauth2Credential` for `ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL`. */
export interface DeleteOauth2CredentialParameters {
  oauth2CredentialId: string;
}

/** What `activity.result.deleteOauth2CredentialResult` holds once `deleteOauth2Credential` completes. */
export interface DeleteOauth2CredentialResult {
  oauth2CredentialId: string;
}

/** The `parameters` of `oauth2Authenticate` for `ACTIVITY_TYPE_OAUTH2_AUTHENTICATE`. */
export interface Oauth2AuthenticateParameters {
  oauth2CredentialId: string;
  authCode: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
  bearerTokenTargetPublicKey?: string;
}

/** What `activity.result.oauth2AuthenticateResult` holds once `oauth2Authenticate` completes. */
export interface Oauth2AuthenticateResult {
  oidcToken: string;
}

/** The request of `getOauth2Credential` (`POST /public/v1/query/get_oauth2_credential`). */
export interface GetOauth2CredentialRequest {
  organizationId: string;
  oauth2CredentialId: string;
}

/** What `getOauth2Credential` answers. */
export interface GetOauth2CredentialResponse {
  oauth2Credential: {
    oauth2CredentialId: string;
    organizationId: string;
    provider: string;
    clientId: string;
    encryptedClientSecret: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
  };
}

/** The request of `listOauth2Credentials` (`POST /public/v1/query/list_oauth2_credentials`). */
export interface ListOauth2CredentialsRequest {
  organizationId: string;
}

/** What `listOauth2Credentials` answers. */
export interface ListOauth2CredentialsResponse {
  oauth2Credentials: {
    oauth2CredentialId: string;
    organizationId: string;
    provider: string;
    clientId: string;
    encryptedClientSecret: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
  }[];
}

/** The `parameters` of `createSmartContractInterface` for `ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE`. */
export interface CreateSmartContractInterfaceParameters {
  smartContractAddress: string;
  smartContractInterface: string;
  type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM" | "SMART_CONTRACT_INTERFACE_TYPE_SOLANA";
  label: string;
  notes?: string;
}

/** What `activity.result.createSmartContractInterfaceResult` holds once `createSmartContractInterface` completes. */
export interface CreateSmartContractInterfaceResult {
  smartContractInterfaceId: string;
}

/** The `parameters` of `deleteSmartContractInterface` for `ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE`. */
export interface DeleteSmartContractInterfaceParameters {
  smartContractInterfaceId: string;
}

/** What `activity.result.deleteSmartContractInterfaceResult` holds once `deleteSmartContractInterface` completes. */
export interface DeleteSmartContractInterfaceResult {
  smartContractInterfaceId: string;
}

/** The request of `getSmartContractInterface` (`POST /public/v1/query/get_smart_contract_interface`). */
export interface GetSmartContractInterfaceRequest {
  organizationId: string;
  smartContractInterfaceId: string;
}

/** What `getSmartContractInterface` answers. */
export interface GetSmartContractInterfaceResponse {
  smartContractInterface: {
    organizationId: string;
    smartContractInterfaceId: string;
    smartContractAddress: string;
    smartContractInterface: string;
    type: string;
    label: string;
    notes: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
  };
}

/** The request of `getSmartContractInterfaces` (`POST /public/v1/query/list_smart_contract_interfaces`). */
export interface GetSmartContractInterfacesRequest {
  organizationId: string;
}

/** What `getSmartContractInterfaces` answers. */
export interface GetSmartContractInterfacesResponse {
  smartContractInterfaces: {
    organizationId: string;
    smartContractInterfaceId: string;
    smartContractAddress: string;
    smartContractInterface: string;
    type: string;
    label: string;
    notes: string;
    createdAt: Timestamp;
    updatedAt: Timestamp;
  }[];
}

/** The `parameters` of `createUsers` for `ACTIVITY_TYPE_CREATE_USERS_V4`. */
export interface CreateUsersParameters {
  users: {
    userTags: string[];
    apiKeys: {
      apiKeyName: string;
      publicKey: string;
      curveType: "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";
      expirationSeconds?: string | number;
    }[];
    authenticators: {
      authenticatorName: string;
      challenge: string;
      attestation: {
        credentialId: string;
        clientDataJson: string;
        attestationObject: string;
        transports: (
          | "AUTHENTICATOR_TRANSPORT_BLE"
          | "AUTHENTICATOR_TRANSPORT_INTERNAL"
          | "AUTHENTICATOR_TRANSPORT_NFC"
          | "AUTHENTICATOR_TRANSPORT_USB"
          | "AUTHENTICATOR_TRANSPORT_HYBRID"
        )[];
      };
    }[];
    oauthProviders: {
      providerName: string;
      oidcToken?: string;
      oidcClaims?: {
        iss: string;
        sub: string;
        aud: string;
      };
    }[];
    userName: string;
    userEmail?: string;
    userPhoneNumber?: string;
  }[];
}

/** The `parameters` of `createUsers` for `ACTIVITY_TYPE_CREATE_USERS_V3`. */
export interface CreateUsersV3Parameters {
  users: {
    userTags: string[];
    apiKeys: {
      apiKeyName: string;
      publicKey: string;
      curveType: "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";
      expirationSeconds?: string | number;
    }[];
    authenticators: {
      authenticatorName: string;
      challenge: string;
      attestation: {
        credentialId: string;
        clientDataJson: string;
        attestationObject: string;
        transports: (
          | "AUTHENTICATOR_TRANSPORT_BLE"
          | "AUTHENTICATOR_TRANSPORT_INTERNAL"
          | "AUTHENTICATOR_TRANSPORT_NFC"
          | "AUTHENTICATOR_TRANSPORT_USB"
          | "AUTHENTICATOR_TRANSPORT_HYBRID"
        )[];
      };
    }[];
    oauthProviders: {
      providerName: string;
      oidcToken: string;
    }[];
    userName: string;
    userEmail?: string;
    userPhoneNumber?: string;
  }[];
}

/** What `activity.result.createUsersResult` holds once `createUsers` completes. */
export interface CreateUsersResult {
  userIds: string[];
}

/** The `parameters` of `createApiOnlyUsers` for `ACTIVITY_TYPE_CREATE_API_ONLY_USERS`. */
export interface CreateApiOnlyUsersParameters {
  apiOnlyUsers: {
    userName: string;
    userEmail?: string;
    userTags: string[];
    apiKeys: {
      apiKeyName: string;
      publicKey: string;
      expirationSeconds?: string | number;
    }[];
  }[];
}

/** What `activity.result.createApiOnlyUsersResult` holds once `createApiOnlyUsers` completes. */
export interface CreateApiOnlyUsersResult {
  userIds: string[];
}

/** The `parameters` of `updateUser` for `ACTIVITY_TYPE_UPDATE_USER`. */
export interface UpdateUserParameters {
  userId: string;
  userName?: string;
  userEmail?: string;
  userTagIds?: string[];
  userPhoneNumber?: string;
}

/** What `activity.result.updateUserResult` holds once `updateUser` completes. */
export interface UpdateUserResult {
  userId: string;
}

/** The `parameters` of `updateUserName` for `ACTIVITY_TYPE_UPDATE_USER_NAME`. */
export interface UpdateUserNameParameters {
  userId: string;
  userName: string;
}

/** What `activity.result.updateUserNameResult` holds once `updateUserName` completes. */
export interface UpdateUserNameResult {
  userId: string;
}

/** The `parameters` of `updateUserEmail` for `ACTIVITY_TYPE_UPDATE_USER_EMAIL`. */
export interface UpdateUserEmailParameters {
  userId: string;
  userEmail: string;
  verificationToken?: string;
}

/** What `activity.result.updateUserEmailResult` holds once `updateUserEmail` completes. */
export interface UpdateUserEmailResult {
  userId: string;
}

/** The `parameters` of `updateUserPhoneNumber` for `ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER`. */
export interface UpdateUserPhoneNumberParameters {
  userId: string;
  userPhoneNumber: string;
  verificationToken?: string;
}

/** What `activity.result.updateUserPhoneNumberResult` holds once `updateUserPhoneNumber` completes. */
export interface UpdateUserPhoneNumberResult {
  userId: string;
}

/** The `parameters` of `deleteUsers` for `ACTIVITY_TYPE_DELETE_USERS`. */
export interface DeleteUsersParameters {
  userIds: string[];
}

/** What `activity.result.deleteUsersResult` holds once `deleteUsers` completes. */
export interface DeleteUsersResult {
  userIds: string[];
}

/** The request of `getUser` (`POST /public/v1/query/get_user`). */
export interface GetUserRequest {
  organizationId: string;
  userId: string;
}

/** What `getUser` answers. */
export interface GetUserResponse {
  user: User;
}

/** The request of `getUsers` (`POST /public/v1/query/list_users`). */
export interface GetUsersRequest {
  organizationId: string;
}

/** What `getUsers` answers. */
export interface GetUsersResponse {
  users: User[];
}

/** The `parameters` of `createApiKeys` for `ACTIVITY_TYPE_CREATE_API_KEYS_V2`. */
export interface CreateApiKeysParameters {
  apiKeys: {
    apiKeyName: string;
    publicKey: string;
    curveType: "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519";
    expirationSeconds?: string | number;
  }[];
  userId: string;
}

/** What `activity.result.createApiKeysResult` holds once `createApiKeys` completes. */
export interface CreateApiKeysResult {
  apiKeyIds: string[];
}

/** The `parameters` of `deleteApiKeys` for `ACTIVITY_TYPE_DELETE_API_KEYS`. */
export interface DeleteApiKeysParameters {
  userId: string;
  apiKeyIds: string[];
}

/** What `activity.result.deleteApiKeysResult` holds once `deleteApiKeys` completes. */
export interface DeleteApiKeysResult {
  apiKeyIds: string[];
}

/** The request of `getApiKey` (`POST /public/v1/query/get_api_key`). */
export interface GetApiKeyRequest {
  organizationId: string;
  apiKeyId: string;
}

/** What `getApiKey` answers. */
export interface GetApiKeyResponse {
  apiKey: ApiKey;
}

/** The request of `getApiKeys` (`POST /public/v1/query/get_api_keys`). */
export interface GetApiKeysRequest {
  organizationId: string;
  userId?: string;
}

/** What `getApiKeys` answers. */
export interface GetApiKeysResponse {
  apiKeys: ApiKey[];
}

/** The `parameters` of `createAuthenticators` for `ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2`. */
export interface CreateAuthenticatorsParameters {
  authenticators: {
    authenticatorName: string;
    challenge: string;
    attestation: {
      credentialId: string;
      clientDataJson: string;
      attestationObject: string;
      transports: (
        | "AUTHENTICATOR_TRANSPORT_BLE"
        | "AUTHENTICATOR_TRANSPORT_INTERNAL"
        | "AUTHENTICATOR_TRANSPORT_NFC"
        | "AUTHENTICATOR_TRANSPORT_USB"
        | "AUTHENTICATOR_TRANSPORT_HYBRID"
      )[];
    };
  }[];
  userId: string;
}

/** What `activity.result.createAuthenticatorsResult` holds once `createAuthenticators` completes. */
export interface CreateAuthenticatorsResult {
  authenticatorIds: string[];
}

/** The `parameters` of `deleteAuthenticators` for `ACTIVITY_TYPE_DELETE_AUTHENTICATORS`. */
export interface DeleteAuthenticatorsParameters {
  userId: string;
  authenticatorIds: string[];
}

/** What `activity.result.deleteAuthenticatorsResult` holds once `deleteAuthenticators` completes. */
export interface DeleteAuthenticatorsResult {
  authenticatorIds: string[];
}

/** The request of `getAuthenticator` (`POST /public/v1/query/get_authenticator`). */
export interface GetAuthenticatorRequest {
  organizationId: string;
  authenticatorId: string;
}

/** What `getAuthenticator` answers. */
export interface GetAuthenticatorResponse {
  authenticator: Authenticator;
}

/** The request of `getAuthenticators` (`POST /public/v1/query/get_authenticators`). */
export interface GetAuthenticatorsRequest {
  organizationId: string;
  userId: string;
}

/** What `getAuthenticators` answers. */
export interface GetAuthenticatorsResponse {
  authenticators: Authenticator[];
}

/** The `parameters` of `createOauthProviders` for `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2`. */
export interface CreateOauthProvidersParameters {
  userId: string;
  oauthProviders: {
    providerName: string;
    oidcToken?: string;
    oidcClaims?: {
      iss: string;
      sub: string;
      aud: string;
    };
  }[];
}

/** The `parameters` of `createOauthProviders` for `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS`. */
export interface CreateOauthProvidersV1Parameters {
  userId: string;
  oauthProviders: {
    providerName: string;
    oidcToken: string;
  }[];
}

/** What `activity.result.createOauthProvidersResultV2` or `activity.result.createOauthProvidersResult` holds once `createOauthProviders` completes. */
export interface CreateOauthProvidersResult {
  providerIds: string[];
}

/** The `parameters` of `deleteOauthProviders` for `ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS`. */
export interface DeleteOauthProvidersParameters {
  userId: string;
  providerIds: string[];
}

/** What `activity.result.deleteOauthProvidersResult` holds once `deleteOauthProviders` completes. */
export interface DeleteOauthProvidersResult {
  providerIds: string[];
}

/** The request of `getOauthProviders` (`POST /public/v1/query/get_oauth_providers`). */
export interface GetOauthProvidersRequest {
  organizationId: string;
  userId?: string;
}

/** What `getOauthProviders` answers. */
export interface GetOauthProvidersResponse {
  oauthProviders: OauthProvider[];
}

/** The `parameters` of `createUserTag` for `ACTIVITY_TYPE_CREATE_USER_TAG`. */
export interface CreateUserTagParameters {
  userTagName: string;
  userIds: string[];
}

/** What `activity.result.createUserTagResult` holds once `createUserTag` completes. */
export interface CreateUserTagResult {
  userTagId: string;
  userIds: string[];
}

/** The `parameters` of `updateUserTag` for `ACTIVITY_TYPE_UPDATE_USER_TAG`. */
export interface UpdateUserTagParameters {
  userTagId: string;
  newUserTagName?: string;
  addUserIds: string[];
  removeUserIds: string[];
}

/** What `activity.result.updateUserTagResult` holds once `updateUserTag` completes. */
export interface UpdateUserTagResult {
  userTagId: string;
}

/** The `parameters` of `deleteUserTags` for `ACTIVITY_TYPE_DELETE_USER_TAGS`. */
export interface DeleteUserTagsParameters {
  userTagIds: string[];
}

/** What `activity.result.deleteUserTagsResult` holds once `deleteUserTags` completes. */
export interface DeleteUserTagsResult {
  userTagIds: string[];
  userIds: string[];
}

/** The request of `listUserTags` (`POST /public/v1/query/list_user_tags`). */
export interface ListUserTagsRequest {
  organizationId: string;
}

/** What `listUserTags` answers. */
export interface ListUserTagsResponse {
  userTags: {
    tagId: string;
    tagName: string;
    tagType: "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";
    createdAt: Timestamp;
    updatedAt: Timestamp;
  }[];
}

/** The `parameters` of `createPolicy` for `ACTIVITY_TYPE_CREATE_POLICY_V3`. */
export interface CreatePolicyParameters {
  policyName: string;
  effect: "EFFECT_ALLOW" | "EFFECT_DENY";
  condition?: string;
  consensus?: string;
  notes?: string;
  time?: string;
}

/** The `parameters` of `createPolicy` for `ACTIVITY_TYPE_CREATE_POLICY_V2`. */
export interface CreatePolicyV2Parameters {
  policyName: string;
  selectors: {
    subject: string;
    operator:
      | "OPERATOR_EQUAL"
      | "OPERATOR_MORE_THAN"
      | "OPERATOR_MORE_THAN_OR_EQUAL"
      | "OPERATOR_LESS_THAN"
      | "OPERATOR_LESS_THAN_OR_EQUAL"
      | "OPERATOR_CONTAINS"
      | "OPERATOR_NOT_EQUAL"
      | "OPERATOR_IN"
      | "OPERATOR_NOT_IN"
      | "OPERATOR_CONTAINS_ONE"
      | "OPERATOR_CONTAINS_ALL";
    targets: string[];
  }[];
  effect: "EFFECT_ALLOW" | "EFFECT_DENY";
  notes?: string;
}

/** The `parameters` of `createPolicy` for `ACTIVITY_TYPE_CREATE_POLICY`. */
export interface CreatePolicyV1Parameters {
  policyName: string;
  selectors: {
    subject: string;
    operator:
      | "OPERATOR_EQUAL"
      | "OPERATOR_MORE_THAN"
      | "OPERATOR_MORE_THAN_OR_EQUAL"
      | "OPERATOR_LESS_THAN"
      | "OPERATOR_LESS_THAN_OR_EQUAL"
      | "OPERATOR_CONTAINS"
      | "OPERATOR_NOT_EQUAL"
      | "OPERATOR_IN"
      | "OPERATOR_NOT_IN"
      | "OPERATOR_CONTAINS_ONE"
      | "OPERATOR_CONTAINS_ALL";
    target: string;
  }[];
  effect: "EFFECT_ALLOW" | "EFFECT_DENY";
  notes?: string;
}

/** What `activity.result.createPolicyResult` holds once `createPolicy` completes. */
export interface CreatePolicyResult {
  policyId: string;
}

/** The `parameters` of `createPolicies` for `ACTIVITY_TYPE_CREATE_POLICIES`. */
export interface CreatePoliciesParameters {
  policies: {
    policyName: string;
    effect: "EFFECT_ALLOW" | "EFFECT_DENY";
    condition?: string;
    consensus?: string;
    notes?: string;
    time?: string;
  }[];
}

/** What `activity.result.createPoliciesResult` holds once `createPolicies` completes. */
export interface CreatePoliciesResult {
  policyIds: string[];
}

/** The `parameters` of `updatePolicy` for `ACTIVITY_TYPE_UPDATE_POLICY_V2`. */
export interface UpdatePolicyParameters {
  time?: string;
  policyId: string;
  policyName?: string;
  policyEffect?: "EFFECT_ALLOW" | "EFFECT_DENY";
  policyCondition?: string;
  policyConsensus?: string;
  policyNotes?: string;
}

/** The `parameters` of `updatePolicy` for `ACTIVITY_TYPE_UPDATE_POLICY`. */
export interface UpdatePolicyV1Parameters {
  policyId: string;
  policyName?: string;
  policyEffect?: "EFFECT_ALLOW" | "EFFECT_DENY";
  policyCondition?: string;
  policyConsensus?: string;
  policyNotes?: string;
}

/** What `activity.result.updatePolicyResultV2` or `activity.result.updatePolicyResult` holds once `updatePolicy` completes. */
export interface UpdatePolicyResult {
  policyId: string;
}

/** The `parameters` of `deletePolicy` for `ACTIVITY_TYPE_DELETE_POLICY`. */
export interface DeletePolicyParameters {
  policyId: string;
}

/** What `activity.result.deletePolicyResult` holds once `deletePolicy` completes. */
export interface DeletePolicyResult {
  policyId: string;
}

/** The `parameters` of `deletePolicies` for `ACTIVITY_TYPE_DELETE_POLICIES`. */
export interface DeletePoliciesParameters {
  policyIds: string[];
}

/** What `activity.result.deletePoliciesResult` holds once `deletePolicies` completes. */
export interface DeletePoliciesResult {
  policyIds: string[];
}

/** The request of `getPolicy` (`POST /public/v1/query/get_policy`). */
export interface GetPolicyRequest {
  organizationId: string;
  policyId: string;
}

/** What `getPolicy` answers. */
export interface GetPolicyResponse {
  policy: {
    time?: string;
    policyId: string;
    policyName: string;
    effect: "EFFECT_ALLOW" | "EFFECT_DENY";
    createdAt: Timestamp;
    updatedAt: Timestamp;
    notes: string;
    consensus: string;
    condition: string;
  };
}

/** The request of `getPolicies` (`POST /public/v1/query/list_policies`). */
export interface GetPoliciesRequest {
  organizationId: string;
}

/** What `getPolicies` answers. */
export interface GetPoliciesResponse {
  policies: {
    time?: string;
    policyId: string;
    policyName: string;
    effect: "EFFECT_ALLOW" | "EFFECT_DENY";
    createdAt: Timestamp;
    updatedAt: Timestamp;
    notes: string;
    consensus: string;
    condition: string;
  }[];
}

/** The request of `getPolicyEvaluations` (`POST /public/v1/query/get_policy_evaluations`). */
export interface GetPolicyEvaluationsRequest {
  organizationId: string;
  activityId: string;
}

/** What `getPolicyEvaluations` answers. */
export interface GetPolicyEvaluationsResponse {
  policyEvaluations: {
    id: string;
    activityId: string;
    organizationId: string;
    voteId: string;
    policyEvaluations: {
      policyId: string;
      outcome:
        | "OUTCOME_ALLOW"
        | "OUTCOME_DENY_EXPLICIT"
        | "OUTCOME_DENY_IMPLICIT"
        | "OUTCOME_REQUIRES_CONSENSUS"
        | "OUTCOME_REJECTED"
        | "OUTCOME_ERROR"
        | "OUTCOME_REQUIRES_AUTHENTICATORS"
        | "OUTCOME_TIME_INACTIVE";
    }[];
    createdAt: Timestamp;
  }[];
}

/** The `parameters` of `createMfaPolicy` for `ACTIVITY_TYPE_CREATE_MFA_POLICY`. */
export interface CreateMfaPolicyParameters {
  userId: string;
  mfaPolicyName: string;
  condition: string;
  requiredAuthenticationMethods: {
    any: {
      type:
        | "AUTHENTICATION_TYPE_EMAIL_OTP"
        | "AUTHENTICATION_TYPE_SMS_OTP"
        | "AUTHENTICATION_TYPE_PASSKEY"
        | "AUTHENTICATION_TYPE_API_KEY"
        | "AUTHENTICATION_TYPE_OAUTH"
        | "AUTHENTICATION_TYPE_SESSION";
      id?: string;
    }[];
  }[];
  order: string | number;
  notes?: string;
}

/** What `activity.result.createMfaPolicyResult` holds once `createMfaPolicy` completes. */
export interface CreateMfaPolicyResult {
  mfaPolicyId: string;
}

/** The `parameters` of `updateMfaPolicy` for `ACTIVITY_TYPE_UPDATE_MFA_POLICY`. */
export interface UpdateMfaPolicyParameters {
  userId: string;
  mfaPolicyId: string;
  mfaPolicyName?: string;
  condition?: string;
  requiredAuthenticationMethods?: {
    any: {
      type:
        | "AUTHENTICATION_TYPE_EMAIL_OTP"
        | "AUTHENTICATION_TYPE_SMS_OTP"
        | "AUTHENTICATION_TYPE_PASSKEY"
        | "AUTHENTICATION_TYPE_API_KEY"
        | "AUTHENTICATION_TYPE_OAUTH"
        | "AUTHENTICATION_TYPE_SESSION";
      id?: string;
    }[];
  }[];
  order?: string | number;
  notes?: string;
}

/** What `activity.result.updateMfaPolicyResult` holds once `updateMfaPolicy` completes. */
export interface UpdateMfaPolicyResult {
  mfaPolicyId: string;
}

/** The `parameters` of `deleteMfaPolicy` for `ACTIVITY_TYPE_DELETE_MFA_POLICY`. */
export interface DeleteMfaPolicyParameters {
  userId: string;
  mfaPolicyId: string;
}

/** What `activity.result.deleteMfaPolicyResult` holds once `deleteMfaPolicy` completes. */
export interface DeleteMfaPolicyResult {
  mfaPolicyId: string;
}

/** The request of `getMfaPolicy` (`POST /public/v1/query/get_mfa_policy`). */
export interface GetMfaPolicyRequest {
  organizationId: string;
  userId: string;
  mfaPolicyId: string;
}

/** What `getMfaPolicy` answers. */
export interface GetMfaPolicyResponse {
  mfaPolicy: MfaPolicy;
}

/** The request of `getMfaPolicies` (`POST /public/v1/query/get_mfa_policies`). */
export interface GetMfaPoliciesRequest {
  organizationId: string;
  userId: string;
}

/** What `getMfaPolicies` answers. */
export interface GetMfaPoliciesResponse {
  mfaPolicies: MfaPolicy[];
}

/** The request of `getMfaStatus` (`POST /public/v1/query/get_mfa_status`). */
export interface GetMfaStatusRequest {
  organizationId: string;
  activityId: string;
  userId?: string;
}

/** What `getMfaStatus` answers. */
export interface GetMfaStatusResponse {
  mfaStatuses: {
    mfaPolicyId: string;
    userId: string;
    satisfied: boolean;
    satisfiedMethods: {
      type: string;
      /** The API key, passkey, OAuth provider or session profile that must be used; absent: any of `type`. */
      id?: string;
    }[];
    requiredMethods: {
      any: {
        type: string;
        /** The API key, passkey, OAuth provider or session profile that must be used; absent: any of `type`. */
        id?: string;
      }[];
    }[];
  }[];
}

/** The `parameters` of `createSessionProfile` for `ACTIVITY_TYPE_CREATE_SESSION_PROFILE`. */
export interface CreateSessionProfileParameters {
  sessionProfileName: string;
  scope: string;
  expirationSeconds?: string | number;
  notes?: string;
}

/** What `activity.result.createSessionProfileResult` holds once `createSessionProfile` completes. */
export interface CreateSessionProfileResult {
  sessionProfileId: string;
}

/** The request of `getSessionProfile` (`POST /public/v1/query/get_session_profile`). */
export interface GetSessionProfileRequest {
  organizationId: string;
  sessionProfileId: string;
}

/** What `getSessionProfile` answers. */
export interface GetSessionProfileResponse {
  sessionProfile: SessionProfile;
}

/** The request of `getSessionProfiles` (`POST /public/v1/query/get_session_profiles`). */
export interface GetSessionProfilesRequest {
  organizationId: string;
}

/** What `getSessionProfiles` answers. */
export interface GetSessionProfilesResponse {
  sessionProfiles: SessionProfile[];
}

/** The `parameters` of `approveActivity` for `ACTIVITY_TYPE_APPROVE_ACTIVITY`. */
export interface ApproveActivityParameters {
  fingerprint: string;
}

/** The `parameters` of `rejectActivity` for `ACTIVITY_TYPE_REJECT_ACTIVITY`. */
export interface RejectActivityParameters {
  fingerprint: string;
}

/** The `parameters` of `updateRootQuorum` for `ACTIVITY_TYPE_UPDATE_ROOT_QUORUM`. */
export interface UpdateRootQuorumParameters {
  threshold: string | number;
  userIds: string[];
}

/** What `activity.result.updateRootQuorumResult` holds once `updateRootQuorum` completes. */
export type UpdateRootQuorumResult = {};

/** The `parameters` of `oauth` for `ACTIVITY_TYPE_OAUTH`. */
export interface OauthParameters {
  oidcToken: string;
  targetPublicKey: string;
  apiKeyName?: string;
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
}

/** What `activity.result.oauthResult` holds once `oauth` completes. */
export interface OauthResult {
  apiKeyId: string;
  credentialBundle: string;
  userId: string;
}

/** The `parameters` of `createReadWriteSession` for `ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2`. */
export interface CreateReadWriteSessionParameters {
  targetPublicKey: string;
  userId?: string;
  apiKeyName?: string;
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
}

/** What `activity.result.createReadWriteSessionResultV2` holds once `createReadWriteSession` completes. */
export interface CreateReadWriteSessionResult {
  apiKeyId: string;
  credentialBundle: string;
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
}

/** The `parameters` of `stampLogin` for `ACTIVITY_TYPE_STAMP_LOGIN`. */
export interface StampLoginParameters {
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
  sessionProfileId?: string;
  publicKey: string;
}

/** What `activity.result.stampLoginResult` holds once `stampLogin` completes. */
export interface StampLoginResult {
  session: string;
}

/** The `parameters` of `oauthLogin` for `ACTIVITY_TYPE_OAUTH_LOGIN`. */
export interface OauthLoginParameters {
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
  sessionProfileId?: string;
  oidcToken: string;
  publicKey: string;
}

/** What `activity.result.oauthLoginResult` holds once `oauthLogin` completes. */
export interface OauthLoginResult {
  session: string;
}

/** The `parameters` of `otpLogin` for `ACTIVITY_TYPE_OTP_LOGIN_V2`. */
export interface OtpLoginParameters {
  clientSignature: {
    publicKey: string;
    scheme: "CLIENT_SIGNATURE_SCHEME_API_P256";
    message: string;
    signature: string;
  };
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
  sessionProfileId?: string;
  verificationToken: string;
  publicKey: string;
}

/** The `parameters` of `otpLogin` for `ACTIVITY_TYPE_OTP_LOGIN`. */
export interface OtpLoginV1Parameters {
  clientSignature?: {
    publicKey: string;
    scheme: "CLIENT_SIGNATURE_SCHEME_API_P256";
    message: string;
    signature: string;
  };
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
  sessionProfileId?: string;
  verificationToken: string;
  publicKey: string;
}

/** What `activity.result.otpLoginResult` holds once `otpLogin` completes. */
export interface OtpLoginResult {
  session: string;
}

/** The `parameters` of `createReadOnlySession` for `ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION`. */
export type CreateReadOnlySessionParameters = {};

/** What `activity.result.createReadOnlySessionResult` holds once `createReadOnlySession` completes. */
export interface CreateReadOnlySessionResult {
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
  session: string;
  sessionExpiry: string;
}

/** The `parameters` of `initOtp` for `ACTIVITY_TYPE_INIT_OTP_V3`, `ACTIVITY_TYPE_INIT_OTP_V2`. */
export interface InitOtpParameters {
  appName: string;
  emailCustomization?: {
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  expirationSeconds?: string | number;
  otpLength?: string | number;
  alphanumeric?: boolean;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  otpType: string;
  contact: string;
  smsCustomization?: {
    template?: string;
  };
  userIdentifier?: string;
}

/** The `parameters` of `initOtp` for `ACTIVITY_TYPE_INIT_OTP`. */
export interface InitOtpV1Parameters {
  emailCustomization?: {
    appName?: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  expirationSeconds?: string | number;
  otpLength?: string | number;
  alphanumeric?: boolean;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  otpType: string;
  contact: string;
  smsCustomization?: {
    template?: string;
  };
  userIdentifier?: string;
}

/** What `activity.result.initOtpResultV2` or `activity.result.initOtpResult` holds once `initOtp` completes. */
export interface InitOtpResult {
  otpId: string;
  otpEncryptionTargetBundle?: string;
}

/** The `parameters` of `verifyOtp` for `ACTIVITY_TYPE_VERIFY_OTP_V2`. */
export interface VerifyOtpParameters {
  encryptedOtpBundle: string;
  otpId: string;
  expirationSeconds?: string | number;
}

/** The `parameters` of `verifyOtp` for `ACTIVITY_TYPE_VERIFY_OTP`. */
export interface VerifyOtpV1Parameters {
  otpCode: string;
  publicKey?: string;
  otpId: string;
  expirationSeconds?: string | number;
}

/** What `activity.result.verifyOtpResult` holds once `verifyOtp` completes. */
export interface VerifyOtpResult {
  verificationToken: string;
}

/** The `parameters` of `initOtpAuth` for `ACTIVITY_TYPE_INIT_OTP_AUTH_V3`. */
export interface InitOtpAuthParameters {
  appName: string;
  emailCustomization?: {
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  expirationSeconds?: string | number;
  otpLength?: string | number;
  alphanumeric?: boolean;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  otpType: string;
  contact: string;
  smsCustomization?: {
    template?: string;
  };
  userIdentifier?: string;
}

/** The `parameters` of `initOtpAuth` for `ACTIVITY_TYPE_INIT_OTP_AUTH_V2`. */
export interface InitOtpAuthV2Parameters {
  emailCustomization?: {
    appName?: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  otpLength?: string | number;
  alphanumeric?: boolean;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  otpType: string;
  contact: string;
  smsCustomization?: {
    template?: string;
  };
  userIdentifier?: string;
}

/** The `parameters` of `initOtpAuth` for `ACTIVITY_TYPE_INIT_OTP_AUTH`. */
export interface InitOtpAuthV1Parameters {
  emailCustomization?: {
    appName?: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  otpType: string;
  contact: string;
  smsCustomization?: {
    template?: string;
  };
  userIdentifier?: string;
}

/** What `activity.result.initOtpAuthResultV2` or `activity.result.initOtpAuthResult` holds once `initOtpAuth` completes. */
export interface InitOtpAuthResult {
  otpId: string;
}

/** The `parameters` of `otpAuth` for `ACTIVITY_TYPE_OTP_AUTH`. */
export interface OtpAuthParameters {
  otpId: string;
  otpCode: string;
  targetPublicKey: string;
  apiKeyName?: string;
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
}

/** What `activity.result.otpAuthResult` holds once `otpAuth` completes. */
export interface OtpAuthResult {
  apiKeyId: string;
  credentialBundle: string;
  userId: string;
}

/** The `parameters` of `emailAuth` for `ACTIVITY_TYPE_EMAIL_AUTH_V3`. */
export interface EmailAuthParameters {
  emailCustomization: {
    appName: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  email: string;
  targetPublicKey: string;
  apiKeyName?: string;
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
}

/** The `parameters` of `emailAuth` for `ACTIVITY_TYPE_EMAIL_AUTH_V2`. */
export interface EmailAuthV2Parameters {
  emailCustomization?: {
    appName?: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  email: string;
  targetPublicKey: string;
  apiKeyName?: string;
  expirationSeconds?: string | number;
  invalidateExisting?: boolean;
}

/** What `activity.result.emailAuthResult` holds once `emailAuth` completes. */
export interface EmailAuthResult {
  userId: string;
  apiKeyId: string;
}

/** The `parameters` of `initUserEmailRecovery` for `ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2`. */
export interface InitUserEmailRecoveryParameters {
  emailCustomization: {
    appName: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  email: string;
  targetPublicKey: string;
  expirationSeconds?: string | number;
}

/** The `parameters` of `initUserEmailRecovery` for `ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY`. */
export interface InitUserEmailRecoveryV1Parameters {
  emailCustomization?: {
    appName?: string;
    logoUrl?: string;
    magicLinkTemplate?: string;
    templateVariables?: string;
    templateId?: string;
  };
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  email: string;
  targetPublicKey: string;
  expirationSeconds?: string | number;
}

/** What `activity.result.initUserEmailRecoveryResult` holds once `initUserEmailRecovery` completes. */
export interface InitUserEmailRecoveryResult {
  userId: string;
}

/** The `parameters` of `recoverUser` for `ACTIVITY_TYPE_RECOVER_USER`. */
export interface RecoverUserParameters {
  authenticator: {
    authenticatorName: string;
    challenge: string;
    attestation: {
      credentialId: string;
      clientDataJson: string;
      attestationObject: string;
      transports: (
        | "AUTHENTICATOR_TRANSPORT_BLE"
        | "AUTHENTICATOR_TRANSPORT_INTERNAL"
        | "AUTHENTICATOR_TRANSPORT_NFC"
        | "AUTHENTICATOR_TRANSPORT_USB"
        | "AUTHENTICATOR_TRANSPORT_HYBRID"
      )[];
    };
  };
  userId: string;
}

/** What `activity.result.recoverUserResult` holds once `recoverUser` completes. */
export interface RecoverUserResult {
  authenticatorId: string[];
}

/** The request of `listEmailEvents` (`POST /public/v1/query/list_email_events`). */
export interface ListEmailEventsRequest {
  organizationId: string;
  email: string;
  eventType?: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `listEmailEvents` answers. */
export interface ListEmailEventsResponse {
  emailEvents: {
    id: string;
    organizationId: string;
    messageId: string;
    eventType: string;
    fromAddress: string;
    toAddress: string;
    timestamp: string;
    createdAt: string;
    details: {};
  }[];
}

/** The request of `getVerifiedSubOrgIds` (`POST /public/v1/query/list_verified_suborgs`). */
export interface GetVerifiedSubOrgIdsRequest {
  organizationId: string;
  filterType?: "EMAIL" | "PHONE_NUMBER";
  filterValue?: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `getVerifiedSubOrgIds` answers. */
export interface GetVerifiedSubOrgIdsResponse {
  organizationIds: string[];
}

/** The `parameters` of `exportWallet` for `ACTIVITY_TYPE_EXPORT_WALLET`. */
export interface ExportWalletParameters {
  walletId: string;
  targetPublicKey: string;
  language?:
    | "MNEMONIC_LANGUAGE_ENGLISH"
    | "MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE"
    | "MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE"
    | "MNEMONIC_LANGUAGE_CZECH"
    | "MNEMONIC_LANGUAGE_FRENCH"
    | "MNEMONIC_LANGUAGE_ITALIAN"
    | "MNEMONIC_LANGUAGE_JAPANESE"
    | "MNEMONIC_LANGUAGE_KOREAN"
    | "MNEMONIC_LANGUAGE_SPANISH";
}

/** What `activity.result.exportWalletResult` holds once `exportWallet` completes. */
export interface ExportWalletResult {
  walletId: string;
  exportBundle: string;
}

/** The `parameters` of `exportWalletAccount` for `ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT`. */
export interface ExportWalletAccountParameters {
  address: string;
  targetPublicKey: string;
}

/** What `activity.result.exportWalletAccountResult` holds once `exportWalletAccount` completes. */
export interface ExportWalletAccountResult {
  address: string;
  exportBundle: string;
}

/** The `parameters` of `exportPrivateKey` for `ACTIVITY_TYPE_EXPORT_PRIVATE_KEY`. */
export interface ExportPrivateKeyParameters {
  privateKeyId: string;
  targetPublicKey: string;
}

/** What `activity.result.exportPrivateKeyResult` holds once `exportPrivateKey` completes. */
export interface ExportPrivateKeyResult {
  privateKeyId: string;
  exportBundle: string;
}

/** The `parameters` of `initImportWallet` for `ACTIVITY_TYPE_INIT_IMPORT_WALLET`. */
export interface InitImportWalletParameters {
  userId: string;
}

/** What `activity.result.initImportWalletResult` holds once `initImportWallet` completes. */
export interface InitImportWalletResult {
  importBundle: string;
}

/** The `parameters` of `importWallet` for `ACTIVITY_TYPE_IMPORT_WALLET`. */
export interface ImportWalletParameters {
  userId: string;
  walletName: string;
  encryptedBundle: string;
  accounts: {
    curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
    pathFormat: "PATH_FORMAT_BIP32";
    path: string;
    addressFormat:
      | "ADDRESS_FORMAT_UNCOMPRESSED"
      | "ADDRESS_FORMAT_COMPRESSED"
      | "ADDRESS_FORMAT_ETHEREUM"
      | "ADDRESS_FORMAT_SOLANA"
      | "ADDRESS_FORMAT_COSMOS"
      | "ADDRESS_FORMAT_TRON"
      | "ADDRESS_FORMAT_SUI"
      | "ADDRESS_FORMAT_APTOS"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
      | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
      | "ADDRESS_FORMAT_SEI"
      | "ADDRESS_FORMAT_XLM"
      | "ADDRESS_FORMAT_DOGE_MAINNET"
      | "ADDRESS_FORMAT_DOGE_TESTNET"
      | "ADDRESS_FORMAT_TON_V3R2"
      | "ADDRESS_FORMAT_TON_V4R2"
      | "ADDRESS_FORMAT_TON_V5R1"
      | "ADDRESS_FORMAT_XRP"
      | "ADDRESS_FORMAT_SPARK_MAINNET"
      | "ADDRESS_FORMAT_SPARK_REGTEST";
    name?: string;
  }[];
}

/** What `activity.result.importWalletResult` holds once `importWallet` completes. */
export interface ImportWalletResult {
  walletId: string;
  addresses: string[];
}

/** The `parameters` of `initImportPrivateKey` for `ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY`. */
export interface InitImportPrivateKeyParameters {
  userId: string;
}

/** What `activity.result.initImportPrivateKeyResult` holds once `initImportPrivateKey` completes. */
export interface InitImportPrivateKeyResult {
  importBundle: string;
}

/** The `parameters` of `importPrivateKey` for `ACTIVITY_TYPE_IMPORT_PRIVATE_KEY`. */
export interface ImportPrivateKeyParameters {
  userId: string;
  privateKeyName: string;
  encryptedBundle: string;
  curve: "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
  addressFormats: (
    | "ADDRESS_FORMAT_UNCOMPRESSED"
    | "ADDRESS_FORMAT_COMPRESSED"
    | "ADDRESS_FORMAT_ETHEREUM"
    | "ADDRESS_FORMAT_SOLANA"
    | "ADDRESS_FORMAT_COSMOS"
    | "ADDRESS_FORMAT_TRON"
    | "ADDRESS_FORMAT_SUI"
    | "ADDRESS_FORMAT_APTOS"
    | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH"
    | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH"
    | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH"
    | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH"
    | "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR"
    | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"
    | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"
    | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"
    | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH"
    | "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"
    | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH"
    | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH"
    | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH"
    | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH"
    | "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR"
    | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH"
    | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH"
    | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH"
    | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH"
    | "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR"
    | "ADDRESS_FORMAT_SEI"
    | "ADDRESS_FORMAT_XLM"
    | "ADDRESS_FORMAT_DOGE_MAINNET"
    | "ADDRESS_FORMAT_DOGE_TESTNET"
    | "ADDRESS_FORMAT_TON_V3R2"
    | "ADDRESS_FORMAT_TON_V4R2"
    | "ADDRESS_FORMAT_TON_V5R1"
    | "ADDRESS_FORMAT_XRP"
    | "ADDRESS_FORMAT_SPARK_MAINNET"
    | "ADDRESS_FORMAT_SPARK_REGTEST"
  )[];
}

/** What `activity.result.importPrivateKeyResult` holds once `importPrivateKey` completes. */
export interface ImportPrivateKeyResult {
  privateKeyId: string;
  addresses: {
    format: string;
    address: string;
  }[];
}

/** The `parameters` of `deleteWallets` for `ACTIVITY_TYPE_DELETE_WALLETS`. */
export interface DeleteWalletsParameters {
  walletIds: string[];
  deleteWithoutExport?: boolean;
}

/** What `activity.result.deleteWalletsResult` holds once `deleteWallets` completes. */
export interface DeleteWalletsResult {
  walletIds: string[];
}

/** The `parameters` of `deleteWalletAccounts` for `ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS`. */
export interface DeleteWalletAccountsParameters {
  walletAccountIds: string[];
  deleteWithoutExport?: boolean;
}

/** What `activity.result.deleteWalletAccountsResult` holds once `deleteWalletAccounts` completes. */
export interface DeleteWalletAccountsResult {
  walletAccountIds: string[];
}

/** The `parameters` of `deletePrivateKeys` for `ACTIVITY_TYPE_DELETE_PRIVATE_KEYS`. */
export interface DeletePrivateKeysParameters {
  privateKeyIds: string[];
  deleteWithoutExport?: boolean;
}

/** What `activity.result.deletePrivateKeysResult` holds once `deletePrivateKeys` completes. */
export interface DeletePrivateKeysResult {
  privateKeyIds: string[];
}

/** The `parameters` of `deleteSubOrganization` for `ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION`. */
export interface DeleteSubOrganizationParameters {
  deleteWithoutExport?: boolean;
}

/** What `activity.result.deleteSubOrganizationResult` holds once `deleteSubOrganization` completes. */
export interface DeleteSubOrganizationResult {
  subOrganizationUuid: string;
}

/** The `parameters` of `setOrganizationFeature` for `ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE`. */
export interface SetOrganizationFeatureParameters {
  name:
    | "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY"
    | "FEATURE_NAME_WEBAUTHN_ORIGINS"
    | "FEATURE_NAME_EMAIL_AUTH"
    | "FEATURE_NAME_EMAIL_RECOVERY"
    | "FEATURE_NAME_WEBHOOK"
    | "FEATURE_NAME_SMS_AUTH"
    | "FEATURE_NAME_OTP_EMAIL_AUTH"
    | "FEATURE_NAME_AUTH_PROXY"
    | "FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED"
    | "FEATURE_NAME_SWAP_CONFIG"
    | "FEATURE_NAME_EARN_CONFIG";
  value?: string;
}

/** What `activity.result.setOrganizationFeatureResult` holds once `setOrganizationFeature` completes. */
export interface SetOrganizationFeatureResult {
  features: {
    name: string;
    value: string;
  }[];
}

/** The `parameters` of `removeOrganizationFeature` for `ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE`. */
export interface RemoveOrganizationFeatureParameters {
  name:
    | "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY"
    | "FEATURE_NAME_WEBAUTHN_ORIGINS"
    | "FEATURE_NAME_EMAIL_AUTH"
    | "FEATURE_NAME_EMAIL_RECOVERY"
    | "FEATURE_NAME_WEBHOOK"
    | "FEATURE_NAME_SMS_AUTH"
    | "FEATURE_NAME_OTP_EMAIL_AUTH"
    | "FEATURE_NAME_AUTH_PROXY"
    | "FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED"
    | "FEATURE_NAME_SWAP_CONFIG"
    | "FEATURE_NAME_EARN_CONFIG";
}

/** What `activity.result.removeOrganizationFeatureResult` holds once `removeOrganizationFeature` completes. */
export interface RemoveOrganizationFeatureResult {
  features: {
    name: string;
    value: string;
  }[];
}

/** The `parameters` of `createWebhookEndpoint` for `ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT`. */
export interface CreateWebhookEndpointParameters {
  url: string;
  name: string;
  subscriptions?: {
    eventType: string;
    filtersJson?: string;
    isActive?: boolean;
  }[];
}

/** What `activity.result.createWebhookEndpointResult` holds once `createWebhookEndpoint` completes. */
export interface CreateWebhookEndpointResult {
  endpointId: string;
  webhookEndpoint: {
    endpointId: string;
    organizationId: string;
    url: string;
    name: string;
    isActive: boolean;
    subscriptions: {
      eventType: string;
      filtersJson?: string;
      isActive: boolean;
    }[];
  };
}

/** The `parameters` of `updateWebhookEndpoint` for `ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT`. */
export interface UpdateWebhookEndpointParameters {
  endpointId: string;
  url?: string;
  name?: string;
  isActive?: boolean;
}

/** What `activity.result.updateWebhookEndpointResult` holds once `updateWebhookEndpoint` completes. */
export interface UpdateWebhookEndpointResult {
  endpointId: string;
  webhookEndpoint: {
    endpointId: string;
    organizationId: string;
    url: string;
    name: string;
    isActive: boolean;
    subscriptions: {
      eventType: string;
      filtersJson?: string;
      isActive: boolean;
    }[];
  };
}

/** The `parameters` of `deleteWebhookEndpoint` for `ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT`. */
export interface DeleteWebhookEndpointParameters {
  endpointId: string;
}

/** What `activity.result.deleteWebhookEndpointResult` holds once `deleteWebhookEndpoint` completes. */
export interface DeleteWebhookEndpointResult {
  endpointId: string;
}

/** The request of `listWebhookEndpoints` (`POST /public/v1/query/list_webhook_endpoints`). */
export interface ListWebhookEndpointsRequest {
  organizationId: string;
}

/** What `listWebhookEndpoints` answers. */
export interface ListWebhookEndpointsResponse {
  webhookEndpoints: {
    endpointId: string;
    organizationId: string;
    url: string;
    name: string;
    isActive: boolean;
    subscriptions: {
      eventType: string;
      filtersJson?: string;
      isActive: boolean;
    }[];
  }[];
}

/** The request of `getBootProof` (`POST /public/v1/query/get_boot_proof`). */
export interface GetBootProofRequest {
  organizationId: string;
  ephemeralKey: string;
}

/** What `getBootProof` answers. */
export interface GetBootProofResponse {
  bootProof: {
    ephemeralPublicKeyHex: string;
    awsAttestationDocB64: string;
    qosManifestB64: string;
    qosManifestEnvelopeB64: string;
    deploymentLabel: string;
    enclaveApp: string;
    owner: string;
    createdAt: {
      seconds: string;
      nanos: string;
    };
    qosManifestVersion?: string;
  };
}

/** The request of `getLatestBootProof` (`POST /public/v1/query/get_latest_boot_proof`). */
export interface GetLatestBootProofRequest {
  organizationId: string;
  appName: string;
}

/** What `getLatestBootProof` answers. */
export interface GetLatestBootProofResponse {
  bootProof: {
    ephemeralPublicKeyHex: string;
    awsAttestationDocB64: string;
    qosManifestB64: string;
    qosManifestEnvelopeB64: string;
    deploymentLabel: string;
    enclaveApp: string;
    owner: string;
    createdAt: {
      seconds: string;
      nanos: string;
    };
    qosManifestVersion?: string;
  };
}

/** The request of `getAppProofs` (`POST /public/v1/query/list_app_proofs`). */
export interface GetAppProofsRequest {
  organizationId: string;
  activityId: string;
}

/** What `getAppProofs` answers. */
export interface GetAppProofsResponse {
  appProofs: {
    scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";
    publicKey: string;
    proofPayload: string;
    signature: string;
  }[];
}

/** The `parameters` of `initImportSecrets` for `ACTIVITY_TYPE_INIT_IMPORT_SECRETS`. */
export interface InitImportSecretsParameters {
  encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1";
  numSecrets: string | number;
}

/** What `activity.result.initImportSecretsResult` holds once `initImportSecrets` completes. */
export interface InitImportSecretsResult {
  enclaveTargetMessages: string[];
}

/** The `parameters` of `importSecrets` for `ACTIVITY_TYPE_IMPORT_SECRETS`. */
export interface ImportSecretsParameters {
  secrets: {
    name?: string;
    secretPayload: string;
    targetPublicKey: string;
    encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1";
    staticProperties?: {
      key: string;
      value: string;
    }[];
  }[];
}

/** What `activity.result.importSecretsResult` holds once `importSecrets` completes. */
export interface ImportSecretsResult {
  secretIds: string[];
}

/** The `parameters` of `exportSecrets` for `ACTIVITY_TYPE_EXPORT_SECRETS`. */
export interface ExportSecretsParameters {
  secrets: {
    secretId: string;
    targetPublicKey: string;
    encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1";
  }[];
}

/** What `activity.result.exportSecretsResult` holds once `exportSecrets` completes. */
export interface ExportSecretsResult {
  secretPayloads: string[];
}

/** The request of `listSecrets` (`POST /public/v1/query/list_secrets`). */
export interface ListSecretsRequest {
  organizationId: string;
  paginationOptions?: {
    limit?: string | number;
    before?: string;
    after?: string;
  };
}

/** What `listSecrets` answers. */
export interface ListSecretsResponse {
  secrets: {
    staticProperties: {
      key: string;
      value: string;
    }[];
    createdAtUnixMs: string;
    name?: string;
    secretId: string;
  }[];
}

/**
 * The named types of each operation, by method: the parameters of each version (in the row's order) or the
 * request, and the result. `test/docs/operation-types.test.ts` checks them against the table's schemas.
 *
 * @internal
 */
export interface OperationTypes {
  createSubOrganization: {
    versions: [CreateSubOrganizationParameters, CreateSubOrganizationV7Parameters];
    result: CreateSubOrganizationResult;
  };
  getWhoami: { request: GetWhoamiRequest; result: GetWhoamiResponse };
  getOrganization: { request: GetOrganizationRequest; result: GetOrganizationResponse };
  getSubOrgIds: { request: GetSubOrgIdsRequest; result: GetSubOrgIdsResponse };
  updateOrganizationName: { versions: [UpdateOrganizationNameParameters]; result: UpdateOrganizationNameResult };
  getOrganizationConfigs: { request: GetOrganizationConfigsRequest; result: GetOrganizationConfigsResponse };
  setIpAllowlist: { versions: [SetIpAllowlistParameters]; result: SetIpAllowlistResult };
  removeIpAllowlist: { versions: [RemoveIpAllowlistParameters]; result: RemoveIpAllowlistResult };
  getIpAllowlist: { request: GetIpAllowlistRequest; result: GetIpAllowlistResponse };
  createInvitations: { versions: [CreateInvitationsParameters]; result: CreateInvitationsResult };
  deleteInvitation: { versions: [DeleteInvitationParameters]; result: DeleteInvitationResult };
  getActivity: { request: GetActivityRequest; result: GetActivityResponse };
  getActivities: { request: GetActivitiesRequest; result: GetActivitiesResponse };
  createWallet: { versions: [CreateWalletParameters]; result: CreateWalletResult };
  createWalletAccounts: { versions: [CreateWalletAccountsParameters]; result: CreateWalletAccountsResult };
  updateWallet: { versions: [UpdateWalletParameters]; result: UpdateWalletResult };
  getWallet: { request: GetWalletRequest; result: GetWalletResponse };
  getWallets: { request: GetWalletsRequest; result: GetWalletsResponse };
  getWalletAccount: { request: GetWalletAccountRequest; result: GetWalletAccountResponse };
  getWalletAccounts: { request: GetWalletAccountsRequest; result: GetWalletAccountsResponse };
  createPrivateKeys: { versions: [CreatePrivateKeysParameters]; result: CreatePrivateKeysResult };
  createPrivateKeyTag: { versions: [CreatePrivateKeyTagParameters]; result: CreatePrivateKeyTagResult };
  updatePrivateKeyTag: { versions: [UpdatePrivateKeyTagParameters]; result: UpdatePrivateKeyTagResult };
  deletePrivateKeyTags: { versions: [DeletePrivateKeyTagsParameters]; result: DeletePrivateKeyTagsResult };
  getPrivateKey: { request: GetPrivateKeyRequest; result: GetPrivateKeyResponse };
  getPrivateKeys: { request: GetPrivateKeysRequest; result: GetPrivateKeysResponse };
  listPrivateKeyTags: { request: ListPrivateKeyTagsRequest; result: ListPrivateKeyTagsResponse };
  signRawPayload: { versions: [SignRawPayloadParameters]; result: SignRawPayloadResult };
  signRawPayloads: { versions: [SignRawPayloadsParameters]; result: SignRawPayloadsResult };
  signTransaction: { versions: [SignTransactionParameters]; result: SignTransactionResult };
  ethSendTransaction: {
    versions: [EthSendTransactionParameters, EthSendTransactionV1Parameters];
    result: EthSendTransactionResult;
  };
  ethSendRawTransaction: { versions: [EthSendRawTransactionParameters]; result: EthSendRawTransactionResult };
  ethUndelegate7702: { versions: [EthUndelegate7702Parameters]; result: EthUndelegate7702Result };
  solSendTransaction: {
    versions: [SolSendTransactionParameters, SolSendTransactionV1Parameters];
    result: SolSendTransactionResult;
  };
  getSendTransactionStatus: { request: GetSendTransactionStatusRequest; result: GetSendTransactionStatusResponse };
  getNonces: { request: GetNoncesRequest; result: GetNoncesResponse };
  getWalletAddressBalances: { request: GetWalletAddressBalancesRequest; result: GetWalletAddressBalancesResponse };
  listSupportedAssets: { request: ListSupportedAssetsRequest; result: ListSupportedAssetsResponse };
  listEthTransactionHistory: { request: ListEthTransactionHistoryRequest; result: ListEthTransactionHistoryResponse };
  listSolTransactionHistory: { request: ListSolTransactionHistoryRequest; result: ListSolTransactionHistoryResponse };
  getGasUsage: { request: GetGasUsageRequest; result: GetGasUsageResponse };
  upsertGasUsageConfig: { versions: [UpsertGasUsageConfigParameters]; result: UpsertGasUsageConfigResult };
  createOauth2Credential: { versions: [CreateOauth2CredentialParameters]; result: CreateOauth2CredentialResult };
  updateOauth2Credential: { versions: [UpdateOauth2CredentialParameters]; result: UpdateOauth2CredentialResult };
  deleteOauth2Credential: { versions: [DeleteOauth2CredentialParameters]; result: DeleteOauth2CredentialResult };
  oauth2Authenticate: { versions: [Oauth2AuthenticateParameters]; result: Oauth2AuthenticateResult };
  getOauth2Credential: { request: GetOauth2CredentialRequest; result: GetOauth2CredentialResponse };
  listOauth2Credentials: { request: ListOauth2CredentialsRequest; result: ListOauth2CredentialsResponse };
  createSmartContractInterface: {
    versions: [CreateSmartContractInterfaceParameters];
    result: CreateSmartContractInterfaceResult;
  };
  deleteSmartContractInterface: {
    versions: [DeleteSmartContractInterfaceParameters];
    result: DeleteSmartContractInterfaceResult;
  };
  getSmartContractInterface: { request: GetSmartContractInterfaceRequest; result: GetSmartContractInterfaceResponse };
  getSmartContractInterfaces: {
    request: GetSmartContractInterfacesRequest;
    result: GetSmartContractInterfacesResponse;
  };
  createUsers: { versions: [CreateUsersParameters, CreateUsersV3Parameters]; result: CreateUsersResult };
  createApiOnlyUsers: { versions: [CreateApiOnlyUsersParameters]; result: CreateApiOnlyUsersResult };
  updateUser: { versions: [UpdateUserParameters]; result: UpdateUserResult };
  updateUserName: { versions: [UpdateUserNameParameters]; result: UpdateUserNameResult };
  updateUserEmail: { versions: [UpdateUserEmailParameters]; result: UpdateUserEmailResult };
  updateUserPhoneNumber: { versions: [UpdateUserPhoneNumberParameters]; result: UpdateUserPhoneNumberResult };
  deleteUsers: { versions: [DeleteUsersParameters]; result: DeleteUsersResult };
  getUser: { request: GetUserRequest; result: GetUserResponse };
  getUsers: { request: GetUsersRequest; result: GetUsersResponse };
  createApiKeys: { versions: [CreateApiKeysParameters]; result: CreateApiKeysResult };
  deleteApiKeys: { versions: [DeleteApiKeysParameters]; result: DeleteApiKeysResult };
  getApiKey: { request: GetApiKeyRequest; result: GetApiKeyResponse };
  getApiKeys: { request: GetApiKeysRequest; result: GetApiKeysResponse };
  createAuthenticators: { versions: [CreateAuthenticatorsParameters]; result: CreateAuthenticatorsResult };
  deleteAuthenticators: { versions: [DeleteAuthenticatorsParameters]; result: DeleteAuthenticatorsResult };
  getAuthenticator: { request: GetAuthenticatorRequest; result: GetAuthenticatorResponse };
  getAuthenticators: { request: GetAuthenticatorsRequest; result: GetAuthenticatorsResponse };
  createOauthProviders: {
    versions: [CreateOauthProvidersParameters, CreateOauthProvidersV1Parameters];
    result: CreateOauthProvidersResult;
  };
  deleteOauthProviders: { versions: [DeleteOauthProvidersParameters]; result: DeleteOauthProvidersResult };
  getOauthProviders: { request: GetOauthProvidersRequest; result: GetOauthProvidersResponse };
  createUserTag: { versions: [CreateUserTagParameters]; result: CreateUserTagResult };
  updateUserTag: { versions: [UpdateUserTagParameters]; result: UpdateUserTagResult };
  deleteUserTags: { versions: [DeleteUserTagsParameters]; result: DeleteUserTagsResult };
  listUserTags: { request: ListUserTagsRequest; result: ListUserTagsResponse };
  createPolicy: {
    versions: [CreatePolicyParameters, CreatePolicyV2Parameters, CreatePolicyV1Parameters];
    result: CreatePolicyResult;
  };
  createPolicies: { versions: [CreatePoliciesParameters]; result: CreatePoliciesResult };
  updatePolicy: { versions: [UpdatePolicyParameters, UpdatePolicyV1Parameters]; result: UpdatePolicyResult };
  deletePolicy: { versions: [DeletePolicyParameters]; result: DeletePolicyResult };
  deletePolicies: { versions: [DeletePoliciesParameters]; result: DeletePoliciesResult };
  getPolicy: { request: GetPolicyRequest; result: GetPolicyResponse };
  getPolicies: { request: GetPoliciesRequest; result: GetPoliciesResponse };
  getPolicyEvaluations: { request: GetPolicyEvaluationsRequest; result: GetPolicyEvaluationsResponse };
  createMfaPolicy: { versions: [CreateMfaPolicyParameters]; result: CreateMfaPolicyResult };
  updateMfaPolicy: { versions: [UpdateMfaPolicyParameters]; result: UpdateMfaPolicyResult };
  deleteMfaPolicy: { versions: [DeleteMfaPolicyParameters]; result: DeleteMfaPolicyResult };
  getMfaPolicy: { request: GetMfaPolicyRequest; result: GetMfaPolicyResponse };
  getMfaPolicies: { request: GetMfaPoliciesRequest; result: GetMfaPoliciesResponse };
  getMfaStatus: { request: GetMfaStatusRequest; result: GetMfaStatusResponse };
  createSessionProfile: { versions: [CreateSessionProfileParameters]; result: CreateSessionProfileResult };
  getSessionProfile: { request: GetSessionProfileRequest; result: GetSessionProfileResponse };
  getSessionProfiles: { request: GetSessionProfilesRequest; result: GetSessionProfilesResponse };
  approveActivity: { versions: [ApproveActivityParameters]; result: unknown };
  rejectActivity: { versions: [RejectActivityParameters]; result: unknown };
  updateRootQuorum: { versions: [UpdateRootQuorumParameters]; result: UpdateRootQuorumResult };
  oauth: { versions: [OauthParameters]; result: OauthResult };
  createReadWriteSession: { versions: [CreateReadWriteSessionParameters]; result: CreateReadWriteSessionResult };
  stampLogin: { versions: [StampLoginParameters]; result: StampLoginResult };
  oauthLogin: { versions: [OauthLoginParameters]; result: OauthLoginResult };
  otpLogin: { versions: [OtpLoginParameters, OtpLoginV1Parameters]; result: OtpLoginResult };
  createReadOnlySession: { versions: [CreateReadOnlySessionParameters]; result: CreateReadOnlySessionResult };
  initOtp: { versions: [InitOtpParameters, InitOtpParameters, InitOtpV1Parameters]; result: InitOtpResult };
  verifyOtp: { versions: [VerifyOtpParameters, VerifyOtpV1Parameters]; result: VerifyOtpResult };
  initOtpAuth: {
    versions: [InitOtpAuthParameters, InitOtpAuthV2Parameters, InitOtpAuthV1Parameters];
    result: InitOtpAuthResult;
  };
  otpAuth: { versions: [OtpAuthParameters]; result: OtpAuthResult };
  emailAuth: { versions: [EmailAuthParameters, EmailAuthV2Parameters]; result: EmailAuthResult };
  initUserEmailRecovery: {
    versions: [InitUserEmailRecoveryParameters, InitUserEmailRecoveryV1Parameters];
    result: InitUserEmailRecoveryResult;
  };
  recoverUser: { versions: [RecoverUserParameters]; result: RecoverUserResult };
  listEmailEvents: { request: ListEmailEventsRequest; result: ListEmailEventsResponse };
  getVerifiedSubOrgIds: { request: GetVerifiedSubOrgIdsRequest; result: GetVerifiedSubOrgIdsResponse };
  exportWallet: { versions: [ExportWalletParameters]; result: ExportWalletResult };
  exportWalletAccount: { versions: [ExportWalletAccountParameters]; result: ExportWalletAccountResult };
  exportPrivateKey: { versions: [ExportPrivateKeyParameters]; result: ExportPrivateKeyResult };
  initImportWallet: { versions: [InitImportWalletParameters]; result: InitImportWalletResult };
  importWallet: { versions: [ImportWalletParameters]; result: ImportWalletResult };
  initImportPrivateKey: { versions: [InitImportPrivateKeyParameters]; result: InitImportPrivateKeyResult };
  importPrivateKey: { versions: [ImportPrivateKeyParameters]; result: ImportPrivateKeyResult };
  deleteWallets: { versions: [DeleteWalletsParameters]; result: DeleteWalletsResult };
  deleteWalletAccounts: { versions: [DeleteWalletAccountsParameters]; result: DeleteWalletAccountsResult };
  deletePrivateKeys: { versions: [DeletePrivateKeysParameters]; result: DeletePrivateKeysResult };
  deleteSubOrganization: { versions: [DeleteSubOrganizationParameters]; result: DeleteSubOrganizationResult };
  setOrganizationFeature: { versions: [SetOrganizationFeatureParameters]; result: SetOrganizationFeatureResult };
  removeOrganizationFeature: {
    versions: [RemoveOrganizationFeatureParameters];
    result: RemoveOrganizationFeatureResult;
  };
  createWebhookEndpoint: { versions: [CreateWebhookEndpointParameters]; result: CreateWebhookEndpointResult };
  updateWebhookEndpoint: { versions: [UpdateWebhookEndpointParameters]; result: UpdateWebhookEndpointResult };
  deleteWebhookEndpoint: { versions: [DeleteWebhookEndpointParameters]; result: DeleteWebhookEndpointResult };
  listWebhookEndpoints: { request: ListWebhookEndpointsRequest; result: ListWebhookEndpointsResponse };
  getBootProof: { request: GetBootProofRequest; result: GetBootProofResponse };
  getLatestBootProof: { request: GetLatestBootProofRequest; result: GetLatestBootProofResponse };
  getAppProofs: { request: GetAppProofsRequest; result: GetAppProofsResponse };
  initImportSecrets: { versions: [InitImportSecretsParameters]; result: InitImportSecretsResult };
  importSecrets: { versions: [ImportSecretsParameters]; result: ImportSecretsResult };
  exportSecrets: { versions: [ExportSecretsParameters]; result: ExportSecretsResult };
  listSecrets: { request: ListSecretsRequest; result: ListSecretsResponse };
}
