/**
 * The operation table: every activity and query custodian serves. The typed `CustodyEngine` methods, the
 * HTTP routes and the compatibility checks against the public API description all come from this list.
 * Adding an operation is one entry here and one handler in its resource module.
 *
 * @module
 */

import type { Operation } from "../contract/operation.js";
import { getActivities, getActivity } from "./activities.js";
import { createApiKeys, deleteApiKeys, getApiKey, getApiKeys } from "./api-keys.js";
import { createApiOnlyUsers } from "./api-only-users.js";
import { approveActivity, rejectActivity } from "./approvals.js";
import { createAuthenticators, deleteAuthenticators, getAuthenticator, getAuthenticators } from "./authenticators.js";
import { getWalletAddressBalances, listSupportedAssets } from "./balances.js";
import { deletePrivateKeys, deleteSubOrganization, deleteWalletAccounts, deleteWallets } from "./deletion.js";
import { listEmailEvents } from "./email-events.js";
import { ethSendRawTransaction, ethSendTransaction, getNonces } from "./eth-send.js";
import { ethUndelegate7702 } from "./eth-undelegate.js";
import { exportPrivateKey, exportWallet, exportWalletAccount } from "./export.js";
import { removeOrganizationFeature, setOrganizationFeature } from "./features.js";
import { getGasUsage, upsertGasUsageConfig } from "./gas-usage.js";
import { importPrivateKey, importWallet, initImportPrivateKey, initImportWallet } from "./import.js";
import { createInvitations, deleteInvitation } from "./invitations.js";
import { getIpAllowlist, removeIpAllowlist, setIpAllowlist } from "./ip-allowlists.js";
import {
  createMfaPolicy,
  deleteMfaPolicy,
  getMfaPolicies,
  getMfaPolicy,
  getMfaStatus,
  updateMfaPolicy,
} from "./mfa-policies.js";
import { oauth } from "./oauth.js";
import { createOauthProviders, deleteOauthProviders, getOauthProviders } from "./oauth-providers.js";
import {
  createOauth2Credential,
  deleteOauth2Credential,
  getOauth2Credential,
  listOauth2Credentials,
  oauth2Authenticate,
  updateOauth2Credential,
} from "./oauth2-credentials.js";
import { getOrganizationConfigs, updateOrganizationName } from "./organization-settings.js";
import { createSubOrganization, getOrganization, getWhoami, listSubOrgIds } from "./organizations.js";
import { initOtp, verifyOtp } from "./otp.js";
import { emailAuth, initOtpAuth, otpAuth } from "./otp-auth.js";
import {
  createPolicies,
  createPolicy,
  deletePolicies,
  deletePolicy,
  getPolicies,
  getPolicy,
  getPolicyEvaluations,
  updatePolicy,
} from "./policies.js";
import {
  createPrivateKeyTag,
  deletePrivateKeyTags,
  listPrivateKeyTags,
  updatePrivateKeyTag,
} from "./private-key-tags.js";
import { createPrivateKeys, getPrivateKey, getPrivateKeys } from "./private-keys.js";
import { getAppProofs, getBootProof, getLatestBootProof } from "./proofs.js";
import { updateRootQuorum } from "./root-quorum.js";
import { exportSecrets, importSecrets, initImportSecrets, listSecrets } from "./secrets.js";
import { getSendTransactionStatus } from "./send-status.js";
import { createReadOnlySession, oauthLogin, otpLogin, stampLogin } from "./session-logins.js";
import { createSessionProfile, getSessionProfile, getSessionProfiles } from "./session-profiles.js";
import { createReadWriteSession } from "./sessions.js";
import { signRawPayloadOperation, signRawPayloadsOperation } from "./signing.js";
import {
  createSmartContractInterface,
  deleteSmartContractInterface,
  getSmartContractInterface,
  getSmartContractInterfaces,
} from "./smart-contract-interfaces.js";
import { solSendTransaction } from "./sol-send-transaction.js";
import { listEthTransactionHistory, listSolTransactionHistory } from "./transaction-history.js";
import { signTransaction } from "./transactions.js";
import { initUserEmailRecovery, recoverUser } from "./user-recovery.js";
import { createUserTag, deleteUserTags, listUserTags, updateUserTag } from "./user-tags.js";
import {
  createUsers,
  deleteUsers,
  getUser,
  getUsers,
  updateUser,
  updateUserEmail,
  updateUserName,
  updateUserPhoneNumber,
} from "./users.js";
import { listVerifiedSubOrgIds } from "./verified-suborgs.js";
import { getWallet, getWalletAccount, getWalletAccounts, getWallets } from "./wallet-queries.js";
import { createWallet, createWalletAccounts, updateWallet } from "./wallets.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "./webhook-endpoints.js";

/** Every operation custodian serves, in the order the docs list them. */
export const OPERATIONS = [
  createSubOrganization,
  getWhoami,
  getOrganization,
  listSubOrgIds,
  updateOrganizationName,
  getOrganizationConfigs,
  setIpAllowlist,
  removeIpAllowlist,
  getIpAllowlist,
  createInvitations,
  deleteInvitation,
  getActivity,
  getActivities,
  // Wallets and private keys
  createWallet,
  createWalletAccounts,
  updateWallet,
  getWallet,
  getWallets,
  getWalletAccount,
  getWalletAccounts,
  createPrivateKeys,
  createPrivateKeyTag,
  updatePrivateKeyTag,
  deletePrivateKeyTags,
  getPrivateKey,
  getPrivateKeys,
  listPrivateKeyTags,
  // Signing
  signRawPayloadOperation,
  signRawPayloadsOperation,
  signTransaction,
  ethSendTransaction,
  ethSendRawTransaction,
  ethUndelegate7702,
  solSendTransaction,
  getSendTransactionStatus,
  getNonces,
  getWalletAddressBalances,
  listSupportedAssets,
  listEthTransactionHistory,
  listSolTransactionHistory,
  getGasUsage,
  upsertGasUsageConfig,
  createOauth2Credential,
  updateOauth2Credential,
  deleteOauth2Credential,
  oauth2Authenticate,
  getOauth2Credential,
  listOauth2Credentials,
  createSmartContractInterface,
  deleteSmartContractInterface,
  getSmartContractInterface,
  getSmartContractInterfaces,
  // Users, credentials and user tags
  createUsers,
  createApiOnlyUsers,
  updateUser,
  updateUserName,
  updateUserEmail,
  updateUserPhoneNumber,
  deleteUsers,
  getUser,
  getUsers,
  createApiKeys,
  deleteApiKeys,
  getApiKey,
  getApiKeys,
  createAuthenticators,
  deleteAuthenticators,
  getAuthenticator,
  getAuthenticators,
  createOauthProviders,
  deleteOauthProviders,
  getOauthProviders,
  createUserTag,
  updateUserTag,
  deleteUserTags,
  listUserTags,
  // Policies, votes and the root quorum
  createPolicy,
  createPolicies,
  updatePolicy,
  deletePolicy,
  deletePolicies,
  getPolicy,
  getPolicies,
  getPolicyEvaluations,
  // MFA policies
  createMfaPolicy,
  updateMfaPolicy,
  deleteMfaPolicy,
  getMfaPolicy,
  getMfaPolicies,
  getMfaStatus,
  // Session profiles
  createSessionProfile,
  getSessionProfile,
  getSessionProfiles,
  approveActivity,
  rejectActivity,
  updateRootQuorum,
  // Sign-in and sessions, export, import and deletion
  oauth,
  createReadWriteSession,
  stampLogin,
  oauthLogin,
  otpLogin,
  createReadOnlySession,
  initOtp,
  verifyOtp,
  initOtpAuth,
  otpAuth,
  emailAuth,
  initUserEmailRecovery,
  recoverUser,
  listEmailEvents,
  listVerifiedSubOrgIds,
  exportWallet,
  exportWalletAccount,
  exportPrivateKey,
  initImportWallet,
  importWallet,
  initImportPrivateKey,
  importPrivateKey,
  deleteWallets,
  deleteWalletAccounts,
  deletePrivateKeys,
  deleteSubOrganization,
  // Organization features and webhooks
  setOrganizationFeature,
  removeOrganizationFeature,
  createWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  // Boot and app proofs (custodian runs in no enclave: none to show)
  getBootProof,
  getLatestBootProof,
  getAppProofs,
  // Secrets
  initImportSecrets,
  importSecrets,
  exportSecrets,
  listSecrets,
] as const satisfies readonly Operation[];

export type Operations = typeof OPERATIONS;

/** Looks an operation up by its URL path (`/public/v1/submit/create_wallet`). */
export function operationByUrlPath(urlPath: string): Operation | undefined {
  return BY_URL_PATH.get(urlPath);
}

/** The URL path of an operation. */
export function urlPathOf(operation: Operation): string {
  return `/public/v1/${operation.kind === "activity" ? "submit" : "query"}/${operation.path}`;
}

const BY_URL_PATH = new Map<string, Operation>(OPERATIONS.map((operation) => [urlPathOf(operation), operation]));
