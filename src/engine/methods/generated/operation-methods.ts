/**
 * One documented method per row of the operation table, as `CustodyEngine` (and each `engine.as()` view)
 * carries them. Generated from `src/operations/table.ts` by `npm run generate:operations`: do not edit.
 *
 * @module
 */
import type { OperationMethod } from "../method-types.js";

/** The typed in-process methods, one per operation, named as `@turnkey/http`'s `TurnkeyClient` names them. */
export interface OperationMethods {
  /**
   * Create a new sub-organization. Each root user must have at least one valid credential: an API key, an authenticator, an OAuth provider, or an email or phone number with a login method enabled on the sub-organization (email, email OTP, or SMS).
   *
   * Activity `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8` at `POST /public/v1/submit/create_sub_organization`; the result is `activity.result.createSubOrganizationResultV8`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7`.
   * Policy: resource `ORGANIZATION`, action `CREATE`.
   */
  createSubOrganization: OperationMethod<"createSubOrganization">;
  /**
   * Get basic information about your current API or WebAuthN user and their organization. Affords sub-organization look ups via parent organization for WebAuthN or API key users.
   *
   * Query at `POST /public/v1/query/whoami`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWhoami: OperationMethod<"getWhoami">;
  /**
   * Get details about an organization.
   *
   * Query at `POST /public/v1/query/get_organization`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOrganization: OperationMethod<"getOrganization">;
  /**
   * Get all suborg IDs associated given a parent org ID and an optional filter.
   *
   * Query at `POST /public/v1/query/list_suborgs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSubOrgIds: OperationMethod<"getSubOrgIds">;
  /**
   * Update the name of an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME` at `POST /public/v1/submit/update_organization_name`; the result is `activity.result.updateOrganizationNameResult`.
   * Policy: none; only the root quorum can approve it.
   */
  updateOrganizationName: OperationMethod<"updateOrganizationName">;
  /**
   * Get quorum settings and features for an organization.
   *
   * Query at `POST /public/v1/query/get_organization_configs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOrganizationConfigs: OperationMethod<"getOrganizationConfigs">;
  /**
   * Create invitations to join an existing organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_INVITATIONS` at `POST /public/v1/submit/create_invitations`; the result is `activity.result.createInvitationsResult`.
   * Policy: resource `INVITATION`, action `CREATE`.
   */
  createInvitations: OperationMethod<"createInvitations">;
  /**
   * Delete an existing invitation.
   *
   * Activity `ACTIVITY_TYPE_DELETE_INVITATION` at `POST /public/v1/submit/delete_invitation`; the result is `activity.result.deleteInvitationResult`.
   * Policy: resource `INVITATION`, action `DELETE`.
   */
  deleteInvitation: OperationMethod<"deleteInvitation">;
  /**
   * Get details about an activity.
   *
   * Query at `POST /public/v1/query/get_activity`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getActivity: OperationMethod<"getActivity">;
  /**
   * List all activities within an organization.
   *
   * Query at `POST /public/v1/query/list_activities`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getActivities: OperationMethod<"getActivities">;
  /**
   * Create a wallet and derive addresses.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WALLET` at `POST /public/v1/submit/create_wallet`; the result is `activity.result.createWalletResult`.
   * Policy: resource `WALLET`, action `CREATE`.
   */
  createWallet: OperationMethod<"createWallet">;
  /**
   * Derive additional addresses using an existing wallet.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS` at `POST /public/v1/submit/create_wallet_accounts`; the result is `activity.result.createWalletAccountsResult`.
   * Policy: resource `WALLET`, action `CREATE`.
   */
  createWalletAccounts: OperationMethod<"createWalletAccounts">;
  /**
   * Update a wallet for an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_WALLET` at `POST /public/v1/submit/update_wallet`; the result is `activity.result.updateWalletResult`.
   * Policy: resource `WALLET`, action `UPDATE`.
   */
  updateWallet: OperationMethod<"updateWallet">;
  /**
   * Get details about a wallet.
   *
   * Query at `POST /public/v1/query/get_wallet`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWallet: OperationMethod<"getWallet">;
  /**
   * List all wallets within an organization.
   *
   * Query at `POST /public/v1/query/list_wallets`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWallets: OperationMethod<"getWallets">;
  /**
   * Get a single wallet account.
   *
   * Query at `POST /public/v1/query/get_wallet_account`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWalletAccount: OperationMethod<"getWalletAccount">;
  /**
   * List all accounts within a wallet.
   *
   * Query at `POST /public/v1/query/list_wallet_accounts`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWalletAccounts: OperationMethod<"getWalletAccounts">;
  /**
   * Create new private keys.
   *
   * Activity `ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2` at `POST /public/v1/submit/create_private_keys`; the result is `activity.result.createPrivateKeysResultV2`.
   * Policy: resource `PRIVATE_KEY`, action `CREATE`.
   */
  createPrivateKeys: OperationMethod<"createPrivateKeys">;
  /**
   * Create a private key tag and add it to private keys.
   *
   * Activity `ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG` at `POST /public/v1/submit/create_private_key_tag`; the result is `activity.result.createPrivateKeyTagResult`.
   * Policy: resource `PRIVATE_KEY`, action `CREATE`.
   */
  createPrivateKeyTag: OperationMethod<"createPrivateKeyTag">;
  /**
   * Update human-readable name or associated private keys. Note that this activity is atomic: all of the updates will succeed at once, or all of them will fail.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG` at `POST /public/v1/submit/update_private_key_tag`; the result is `activity.result.updatePrivateKeyTagResult`.
   * Policy: resource `PRIVATE_KEY`, action `UPDATE`.
   */
  updatePrivateKeyTag: OperationMethod<"updatePrivateKeyTag">;
  /**
   * Delete private key tags within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS` at `POST /public/v1/submit/delete_private_key_tags`; the result is `activity.result.deletePrivateKeyTagsResult`.
   * Policy: resource `PRIVATE_KEY`, action `DELETE`.
   */
  deletePrivateKeyTags: OperationMethod<"deletePrivateKeyTags">;
  /**
   * Get details about a private key.
   *
   * Query at `POST /public/v1/query/get_private_key`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPrivateKey: OperationMethod<"getPrivateKey">;
  /**
   * List all private keys within an organization.
   *
   * Query at `POST /public/v1/query/list_private_keys`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPrivateKeys: OperationMethod<"getPrivateKeys">;
  /**
   * List all private key tags within an organization.
   *
   * Query at `POST /public/v1/query/list_private_key_tags`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listPrivateKeyTags: OperationMethod<"listPrivateKeyTags">;
  /**
   * Sign a raw payload.
   *
   * Activity `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2` at `POST /public/v1/submit/sign_raw_payload`; the result is `activity.result.signRawPayloadResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signRawPayload: OperationMethod<"signRawPayload">;
  /**
   * Sign multiple raw payloads with the same signing parameters.
   *
   * Activity `ACTIVITY_TYPE_SIGN_RAW_PAYLOADS` at `POST /public/v1/submit/sign_raw_payloads`; the result is `activity.result.signRawPayloadsResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signRawPayloads: OperationMethod<"signRawPayloads">;
  /**
   * Sign a transaction.
   *
   * Activity `ACTIVITY_TYPE_SIGN_TRANSACTION_V2` at `POST /public/v1/submit/sign_transaction`; the result is `activity.result.signTransactionResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signTransaction: OperationMethod<"signTransaction">;
  /**
   * Submit a transaction intent describing an EVM transaction you would like to broadcast.
   *
   * Activity `ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2` at `POST /public/v1/submit/eth_send_transaction`; the result is `activity.result.ethSendTransactionResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_ETH_SEND_TRANSACTION`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  ethSendTransaction: OperationMethod<"ethSendTransaction">;
  /**
   * Submit a raw transaction (serialized and signed) for broadcasting to the network.
   *
   * Activity `ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION` at `POST /public/v1/submit/eth_send_raw_transaction`; the result is `activity.result.ethSendRawTransactionResult`.
   * Policy: none; only the root quorum can approve it.
   */
  ethSendRawTransaction: OperationMethod<"ethSendRawTransaction">;
  /**
   * Submit an EIP-7702 undelegation transaction.
   *
   * Activity `ACTIVITY_TYPE_ETH_UNDELEGATE_7702` at `POST /public/v1/submit/eth_undelegate_7702`; the result is `activity.result.ethUndelegate7702Result`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  ethUndelegate7702: OperationMethod<"ethUndelegate7702">;
  /**
   * Submit a transaction intent describing an SVM transaction you would like to broadcast. Supports single- and multi-signer intents via activity type versioning.
   *
   * Activity `ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2` at `POST /public/v1/submit/sol_send_transaction`; the result is `activity.result.solSendTransactionResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_SOL_SEND_TRANSACTION`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  solSendTransaction: OperationMethod<"solSendTransaction">;
  /**
   * Get the status of a send transaction request.
   *
   * Query at `POST /public/v1/query/get_send_transaction_status`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSendTransactionStatus: OperationMethod<"getSendTransactionStatus">;
  /**
   * Get nonce values for an address on a given network. Can fetch the standard on-chain nonce and/or the gas station nonce used for sponsored transactions.
   *
   * Query at `POST /public/v1/query/get_nonces`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getNonces: OperationMethod<"getNonces">;
  /**
   * Get gas usage and gas limits for either the parent organization or a sub-organization.
   *
   * Query at `POST /public/v1/query/get_gas_usage`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getGasUsage: OperationMethod<"getGasUsage">;
  /**
   * upsertGasUsageConfig.
   *
   * Activity `ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG` at `POST /public/v1/submit/upsert_gas_usage_config`; the result is `activity.result.upsertGasUsageConfigResult`.
   * The hosted API's description names this activity but no route for it: the route is custodian's.
   * Policy: resource `SPONSORSHIP`, action `UPDATE`.
   */
  upsertGasUsageConfig: OperationMethod<"upsertGasUsageConfig">;
  /**
   * Create an ABI/IDL in JSON.
   *
   * Activity `ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE` at `POST /public/v1/submit/create_smart_contract_interface`; the result is `activity.result.createSmartContractInterfaceResult`.
   * Policy: resource `SMART_CONTRACT_INTERFACE`, action `CREATE`.
   */
  createSmartContractInterface: OperationMethod<"createSmartContractInterface">;
  /**
   * Delete a smart contract interface.
   *
   * Activity `ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE` at `POST /public/v1/submit/delete_smart_contract_interface`; the result is `activity.result.deleteSmartContractInterfaceResult`.
   * Policy: resource `SMART_CONTRACT_INTERFACE`, action `DELETE`.
   */
  deleteSmartContractInterface: OperationMethod<"deleteSmartContractInterface">;
  /**
   * Get details about a smart contract interface.
   *
   * Query at `POST /public/v1/query/get_smart_contract_interface`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSmartContractInterface: OperationMethod<"getSmartContractInterface">;
  /**
   * List all smart contract interfaces within an organization.
   *
   * Query at `POST /public/v1/query/list_smart_contract_interfaces`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSmartContractInterfaces: OperationMethod<"getSmartContractInterfaces">;
  /**
   * Create users in an existing organization. Each user must have at least one valid credential: an API key, an authenticator, an OAuth provider, or an email or phone number with a login method enabled on the organization (email, email OTP, or SMS).
   *
   * Activity `ACTIVITY_TYPE_CREATE_USERS_V4` at `POST /public/v1/submit/create_users`; the result is `activity.result.createUsersResult`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_USERS_V3`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createUsers: OperationMethod<"createUsers">;
  /**
   * Create API-only users in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_API_ONLY_USERS` at `POST /public/v1/submit/create_api_only_users`; the result is `activity.result.createApiOnlyUsersResult`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createApiOnlyUsers: OperationMethod<"createApiOnlyUsers">;
  /**
   * Update a user in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER` at `POST /public/v1/submit/update_user`; the result is `activity.result.updateUserResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUser: OperationMethod<"updateUser">;
  /**
   * Update a user's name in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_NAME` at `POST /public/v1/submit/update_user_name`; the result is `activity.result.updateUserNameResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserName: OperationMethod<"updateUserName">;
  /**
   * Update a user's email in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_EMAIL` at `POST /public/v1/submit/update_user_email`; the result is `activity.result.updateUserEmailResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserEmail: OperationMethod<"updateUserEmail">;
  /**
   * Update a user's phone number in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER` at `POST /public/v1/submit/update_user_phone_number`; the result is `activity.result.updateUserPhoneNumberResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserPhoneNumber: OperationMethod<"updateUserPhoneNumber">;
  /**
   * Delete users within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_USERS` at `POST /public/v1/submit/delete_users`; the result is `activity.result.deleteUsersResult`.
   * Policy: resource `USER`, action `DELETE`.
   */
  deleteUsers: OperationMethod<"deleteUsers">;
  /**
   * Get details about a user.
   *
   * Query at `POST /public/v1/query/get_user`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getUser: OperationMethod<"getUser">;
  /**
   * List all users within an organization.
   *
   * Query at `POST /public/v1/query/list_users`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getUsers: OperationMethod<"getUsers">;
  /**
   * Add API keys to an existing user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_API_KEYS_V2` at `POST /public/v1/submit/create_api_keys`; the result is `activity.result.createApiKeysResult`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createApiKeys: OperationMethod<"createApiKeys">;
  /**
   * Remove api keys from a user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_API_KEYS` at `POST /public/v1/submit/delete_api_keys`; the result is `activity.result.deleteApiKeysResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteApiKeys: OperationMethod<"deleteApiKeys">;
  /**
   * Get details about an API key.
   *
   * Query at `POST /public/v1/query/get_api_key`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getApiKey: OperationMethod<"getApiKey">;
  /**
   * Get details about API keys for a user.
   *
   * Query at `POST /public/v1/query/get_api_keys`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getApiKeys: OperationMethod<"getApiKeys">;
  /**
   * Create authenticators to authenticate requests to Turnkey.
   *
   * Activity `ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2` at `POST /public/v1/submit/create_authenticators`; the result is `activity.result.createAuthenticatorsResult`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createAuthenticators: OperationMethod<"createAuthenticators">;
  /**
   * Remove authenticators from a user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_AUTHENTICATORS` at `POST /public/v1/submit/delete_authenticators`; the result is `activity.result.deleteAuthenticatorsResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteAuthenticators: OperationMethod<"deleteAuthenticators">;
  /**
   * Get details about an authenticator.
   *
   * Query at `POST /public/v1/query/get_authenticator`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getAuthenticator: OperationMethod<"getAuthenticator">;
  /**
   * Get details about authenticators for a user.
   *
   * Query at `POST /public/v1/query/get_authenticators`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getAuthenticators: OperationMethod<"getAuthenticators">;
  /**
   * Create Oauth providers for a specified user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2` at `POST /public/v1/submit/create_oauth_providers`; the result is `activity.result.createOauthProvidersResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createOauthProviders: OperationMethod<"createOauthProviders">;
  /**
   * Remove Oauth providers for a specified user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS` at `POST /public/v1/submit/delete_oauth_providers`; the result is `activity.result.deleteOauthProvidersResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteOauthProviders: OperationMethod<"deleteOauthProviders">;
  /**
   * Get details about Oauth providers for a user.
   *
   * Query at `POST /public/v1/query/get_oauth_providers`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOauthProviders: OperationMethod<"getOauthProviders">;
  /**
   * Create a user tag and add it to users.
   *
   * Activity `ACTIVITY_TYPE_CREATE_USER_TAG` at `POST /public/v1/submit/create_user_tag`; the result is `activity.result.createUserTagResult`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createUserTag: OperationMethod<"createUserTag">;
  /**
   * Update human-readable name or associated users. Note that this activity is atomic: all of the updates will succeed at once, or all of them will fail.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_TAG` at `POST /public/v1/submit/update_user_tag`; the result is `activity.result.updateUserTagResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserTag: OperationMethod<"updateUserTag">;
  /**
   * Delete user tags within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_USER_TAGS` at `POST /public/v1/submit/delete_user_tags`; the result is `activity.result.deleteUserTagsResult`.
   * Policy: resource `USER`, action `DELETE`.
   */
  deleteUserTags: OperationMethod<"deleteUserTags">;
  /**
   * List all user tags within an organization.
   *
   * Query at `POST /public/v1/query/list_user_tags`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listUserTags: OperationMethod<"listUserTags">;
  /**
   * Create a new policy.
   *
   * Activity `ACTIVITY_TYPE_CREATE_POLICY_V3` at `POST /public/v1/submit/create_policy`; the result is `activity.result.createPolicyResult`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_POLICY_V2`, `ACTIVITY_TYPE_CREATE_POLICY`.
   * Policy: resource `POLICY`, action `CREATE`.
   */
  createPolicy: OperationMethod<"createPolicy">;
  /**
   * Create new policies.
   *
   * Activity `ACTIVITY_TYPE_CREATE_POLICIES` at `POST /public/v1/submit/create_policies`; the result is `activity.result.createPoliciesResult`.
   * Policy: resource `POLICY`, action `CREATE`.
   */
  createPolicies: OperationMethod<"createPolicies">;
  /**
   * Update an existing policy.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_POLICY_V2` at `POST /public/v1/submit/update_policy`; the result is `activity.result.updatePolicyResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_UPDATE_POLICY`.
   * Policy: resource `POLICY`, action `UPDATE`.
   */
  updatePolicy: OperationMethod<"updatePolicy">;
  /**
   * Delete an existing policy.
   *
   * Activity `ACTIVITY_TYPE_DELETE_POLICY` at `POST /public/v1/submit/delete_policy`; the result is `activity.result.deletePolicyResult`.
   * Policy: resource `POLICY`, action `DELETE`.
   */
  deletePolicy: OperationMethod<"deletePolicy">;
  /**
   * Delete existing policies.
   *
   * Activity `ACTIVITY_TYPE_DELETE_POLICIES` at `POST /public/v1/submit/delete_policies`; the result is `activity.result.deletePoliciesResult`.
   * Policy: resource `POLICY`, action `DELETE`.
   */
  deletePolicies: OperationMethod<"deletePolicies">;
  /**
   * Get details about a policy.
   *
   * Query at `POST /public/v1/query/get_policy`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicy: OperationMethod<"getPolicy">;
  /**
   * List all policies within an organization.
   *
   * Query at `POST /public/v1/query/list_policies`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicies: OperationMethod<"getPolicies">;
  /**
   * Get the policy evaluations for an activity.
   *
   * Query at `POST /public/v1/query/get_policy_evaluations`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicyEvaluations: OperationMethod<"getPolicyEvaluations">;
  /**
   * Approve an activity.
   *
   * Activity `ACTIVITY_TYPE_APPROVE_ACTIVITY` at `POST /public/v1/submit/approve_activity`.
   * Policy: none of its own; the vote counts toward the consensus of the activity it names.
   */
  approveActivity: OperationMethod<"approveActivity">;
  /**
   * Reject an activity.
   *
   * Activity `ACTIVITY_TYPE_REJECT_ACTIVITY` at `POST /public/v1/submit/reject_activity`.
   * Policy: none of its own; the vote counts toward the consensus of the activity it names.
   */
  rejectActivity: OperationMethod<"rejectActivity">;
  /**
   * Set the threshold and members of the root quorum. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_ROOT_QUORUM` at `POST /public/v1/submit/update_root_quorum`; the result is `activity.result.updateRootQuorumResult`.
   * Policy: none; only the root quorum can approve it.
   */
  updateRootQuorum: OperationMethod<"updateRootQuorum">;
  /**
   * Authenticate a user with an OIDC token (Oauth).
   *
   * Activity `ACTIVITY_TYPE_OAUTH` at `POST /public/v1/submit/oauth`; the result is `activity.result.oauthResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  oauth: OperationMethod<"oauth">;
  /**
   * Create a read write session for a user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2` at `POST /public/v1/submit/create_read_write_session`; the result is `activity.result.createReadWriteSessionResultV2`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  createReadWriteSession: OperationMethod<"createReadWriteSession">;
  /**
   * Create a session for a user through stamping client side (API key, wallet client, or passkey client).
   *
   * Activity `ACTIVITY_TYPE_STAMP_LOGIN` at `POST /public/v1/submit/stamp_login`; the result is `activity.result.stampLoginResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  stampLogin: OperationMethod<"stampLogin">;
  /**
   * Create an Oauth session for a user.
   *
   * Activity `ACTIVITY_TYPE_OAUTH_LOGIN` at `POST /public/v1/submit/oauth_login`; the result is `activity.result.oauthLoginResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  oauthLogin: OperationMethod<"oauthLogin">;
  /**
   * Create an OTP session for a user.
   *
   * Activity `ACTIVITY_TYPE_OTP_LOGIN_V2` at `POST /public/v1/submit/otp_login`; the result is `activity.result.otpLoginResult`.
   * Also accepts `type` `ACTIVITY_TYPE_OTP_LOGIN`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  otpLogin: OperationMethod<"otpLogin">;
  /**
   * Create a read only session for a user (valid for 1 hour).
   *
   * Activity `ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION` at `POST /public/v1/submit/create_read_only_session`; the result is `activity.result.createReadOnlySessionResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  createReadOnlySession: OperationMethod<"createReadOnlySession">;
  /**
   * Initiate a generic OTP activity.
   *
   * Activity `ACTIVITY_TYPE_INIT_OTP_V3` at `POST /public/v1/submit/init_otp`; the result is `activity.result.initOtpResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_INIT_OTP_V2`, `ACTIVITY_TYPE_INIT_OTP`.
   * Policy: resource `OTP`, action `CREATE`.
   */
  initOtp: OperationMethod<"initOtp">;
  /**
   * Verify a generic OTP.
   *
   * Activity `ACTIVITY_TYPE_VERIFY_OTP_V2` at `POST /public/v1/submit/verify_otp`; the result is `activity.result.verifyOtpResult`.
   * Also accepts `type` `ACTIVITY_TYPE_VERIFY_OTP`.
   * Policy: resource `OTP`, action `VERIFY`.
   */
  verifyOtp: OperationMethod<"verifyOtp">;
  /**
   * Initiate an OTP auth activity.
   *
   * Activity `ACTIVITY_TYPE_INIT_OTP_AUTH_V3` at `POST /public/v1/submit/init_otp_auth`; the result is `activity.result.initOtpAuthResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_INIT_OTP_AUTH_V2`, `ACTIVITY_TYPE_INIT_OTP_AUTH`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  initOtpAuth: OperationMethod<"initOtpAuth">;
  /**
   * Authenticate a user with an OTP code sent via email or SMS.
   *
   * Activity `ACTIVITY_TYPE_OTP_AUTH` at `POST /public/v1/submit/otp_auth`; the result is `activity.result.otpAuthResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  otpAuth: OperationMethod<"otpAuth">;
  /**
   * Authenticate a user via email.
   *
   * Activity `ACTIVITY_TYPE_EMAIL_AUTH_V3` at `POST /public/v1/submit/email_auth`; the result is `activity.result.emailAuthResult`.
   * Also accepts `type` `ACTIVITY_TYPE_EMAIL_AUTH_V2`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  emailAuth: OperationMethod<"emailAuth">;
  /**
   * Get all email or phone verified suborg IDs associated given a parent org ID.
   *
   * Query at `POST /public/v1/query/list_verified_suborgs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getVerifiedSubOrgIds: OperationMethod<"getVerifiedSubOrgIds">;
  /**
   * Export a wallet.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_WALLET` at `POST /public/v1/submit/export_wallet`; the result is `activity.result.exportWalletResult`.
   * Policy: resource `WALLET`, action `EXPORT`.
   */
  exportWallet: OperationMethod<"exportWallet">;
  /**
   * Export a wallet account.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT` at `POST /public/v1/submit/export_wallet_account`; the result is `activity.result.exportWalletAccountResult`.
   * Policy: resource `WALLET`, action `EXPORT`.
   */
  exportWalletAccount: OperationMethod<"exportWalletAccount">;
  /**
   * Export a private key.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_PRIVATE_KEY` at `POST /public/v1/submit/export_private_key`; the result is `activity.result.exportPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `EXPORT`.
   */
  exportPrivateKey: OperationMethod<"exportPrivateKey">;
  /**
   * Initialize a new wallet import.
   *
   * Activity `ACTIVITY_TYPE_INIT_IMPORT_WALLET` at `POST /public/v1/submit/init_import_wallet`; the result is `activity.result.initImportWalletResult`.
   * Policy: resource `WALLET`, action `IMPORT`.
   */
  initImportWallet: OperationMethod<"initImportWallet">;
  /**
   * Import a wallet.
   *
   * Activity `ACTIVITY_TYPE_IMPORT_WALLET` at `POST /public/v1/submit/import_wallet`; the result is `activity.result.importWalletResult`.
   * Policy: resource `WALLET`, action `IMPORT`.
   */
  importWallet: OperationMethod<"importWallet">;
  /**
   * Initialize a new private key import.
   *
   * Activity `ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY` at `POST /public/v1/submit/init_import_private_key`; the result is `activity.result.initImportPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `IMPORT`.
   */
  initImportPrivateKey: OperationMethod<"initImportPrivateKey">;
  /**
   * Import a private key.
   *
   * Activity `ACTIVITY_TYPE_IMPORT_PRIVATE_KEY` at `POST /public/v1/submit/import_private_key`; the result is `activity.result.importPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `IMPORT`.
   */
  importPrivateKey: OperationMethod<"importPrivateKey">;
  /**
   * Delete wallets for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WALLETS` at `POST /public/v1/submit/delete_wallets`; the result is `activity.result.deleteWalletsResult`.
   * Policy: resource `WALLET`, action `DELETE`.
   */
  deleteWallets: OperationMethod<"deleteWallets">;
  /**
   * Delete wallet accounts for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS` at `POST /public/v1/submit/delete_wallet_accounts`; the result is `activity.result.deleteWalletAccountsResult`.
   * Policy: resource `WALLET`, action `DELETE`.
   */
  deleteWalletAccounts: OperationMethod<"deleteWalletAccounts">;
  /**
   * Delete private keys for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_PRIVATE_KEYS` at `POST /public/v1/submit/delete_private_keys`; the result is `activity.result.deletePrivateKeysResult`.
   * Policy: resource `PRIVATE_KEY`, action `DELETE`.
   */
  deletePrivateKeys: OperationMethod<"deletePrivateKeys">;
  /**
   * Delete a sub-organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION` at `POST /public/v1/submit/delete_sub_organization`; the result is `activity.result.deleteSubOrganizationResult`.
   * Policy: resource `ORGANIZATION`, action `DELETE`.
   */
  deleteSubOrganization: OperationMethod<"deleteSubOrganization">;
  /**
   * Set an organization feature. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE` at `POST /public/v1/submit/set_organization_feature`; the result is `activity.result.setOrganizationFeatureResult`.
   * Policy: none; only the root quorum can approve it.
   */
  setOrganizationFeature: OperationMethod<"setOrganizationFeature">;
  /**
   * Remove an organization feature. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE` at `POST /public/v1/submit/remove_organization_feature`; the result is `activity.result.removeOrganizationFeatureResult`.
   * Policy: none; only the root quorum can approve it.
   */
  removeOrganizationFeature: OperationMethod<"removeOrganizationFeature">;
  /**
   * Create a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/create_webhook_endpoint`; the result is `activity.result.createWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `CREATE`.
   */
  createWebhookEndpoint: OperationMethod<"createWebhookEndpoint">;
  /**
   * Update a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/update_webhook_endpoint`; the result is `activity.result.updateWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `UPDATE`.
   */
  updateWebhookEndpoint: OperationMethod<"updateWebhookEndpoint">;
  /**
   * Delete a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/delete_webhook_endpoint`; the result is `activity.result.deleteWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `DELETE`.
   */
  deleteWebhookEndpoint: OperationMethod<"deleteWebhookEndpoint">;
  /**
   * List webhook endpoints within an organization.
   *
   * Query at `POST /public/v1/query/list_webhook_endpoints`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listWebhookEndpoints: OperationMethod<"listWebhookEndpoints">;
}
