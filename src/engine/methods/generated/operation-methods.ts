/**
 * One documented method per row of the operation table, as `CustodyEngine` (and each `engine.as()` view)
 * carries them, typed with the named types of `operation-types.ts`. Generated from `src/operations/table.ts` by
 * `npm run generate:operations`: do not edit.
 *
 * @module
 */
import type { ActivityResponse } from "../../../model/wire-types.js";
import type { ActivityInput, ActivityResponseOf, OlderActivityInput } from "../method-types.js";
import type {
  ApproveActivityParameters,
  CreateApiKeysParameters,
  CreateApiKeysResult,
  CreateApiOnlyUsersParameters,
  CreateApiOnlyUsersResult,
  CreateAuthenticatorsParameters,
  CreateAuthenticatorsResult,
  CreateInvitationsParameters,
  CreateInvitationsResult,
  CreateMfaPolicyParameters,
  CreateMfaPolicyResult,
  CreateOauth2CredentialParameters,
  CreateOauth2CredentialResult,
  CreateOauthProvidersParameters,
  CreateOauthProvidersResult,
  CreateOauthProvidersV1Parameters,
  CreatePoliciesParameters,
  CreatePoliciesResult,
  CreatePolicyParameters,
  CreatePolicyResult,
  CreatePolicyV1Parameters,
  CreatePolicyV2Parameters,
  CreatePrivateKeysParameters,
  CreatePrivateKeysResult,
  CreatePrivateKeyTagParameters,
  CreatePrivateKeyTagResult,
  CreateReadOnlySessionParameters,
  CreateReadOnlySessionResult,
  CreateReadWriteSessionParameters,
  CreateReadWriteSessionResult,
  CreateSessionProfileParameters,
  CreateSessionProfileResult,
  CreateSmartContractInterfaceParameters,
  CreateSmartContractInterfaceResult,
  CreateSubOrganizationParameters,
  CreateSubOrganizationResult,
  CreateSubOrganizationV7Parameters,
  CreateUsersParameters,
  CreateUsersResult,
  CreateUsersV3Parameters,
  CreateUserTagParameters,
  CreateUserTagResult,
  CreateWalletAccountsParameters,
  CreateWalletAccountsResult,
  CreateWalletParameters,
  CreateWalletResult,
  CreateWebhookEndpointParameters,
  CreateWebhookEndpointResult,
  DeleteApiKeysParameters,
  DeleteApiKeysResult,
  DeleteAuthenticatorsParameters,
  DeleteAuthenticatorsResult,
  DeleteInvitationParameters,
  DeleteInvitationResult,
  DeleteMfaPolicyParameters,
  DeleteMfaPolicyResult,
  DeleteOauth2CredentialParameters,
  DeleteOauth2CredentialResult,
  DeleteOauthProvidersParameters,
  DeleteOauthProvidersResult,
  DeletePoliciesParameters,
  DeletePoliciesResult,
  DeletePolicyParameters,
  DeletePolicyResult,
  DeletePrivateKeysParameters,
  DeletePrivateKeysResult,
  DeletePrivateKeyTagsParameters,
  DeletePrivateKeyTagsResult,
  DeleteSmartContractInterfaceParameters,
  DeleteSmartContractInterfaceResult,
  DeleteSubOrganizationParameters,
  DeleteSubOrganizationResult,
  DeleteUsersParameters,
  DeleteUsersResult,
  DeleteUserTagsParameters,
  DeleteUserTagsResult,
  DeleteWalletAccountsParameters,
  DeleteWalletAccountsResult,
  DeleteWalletsParameters,
  DeleteWalletsResult,
  DeleteWebhookEndpointParameters,
  DeleteWebhookEndpointResult,
  EmailAuthParameters,
  EmailAuthResult,
  EmailAuthV2Parameters,
  EthSendRawTransactionParameters,
  EthSendRawTransactionResult,
  EthSendTransactionParameters,
  EthSendTransactionResult,
  EthSendTransactionV1Parameters,
  EthUndelegate7702Parameters,
  EthUndelegate7702Result,
  ExportPrivateKeyParameters,
  ExportPrivateKeyResult,
  ExportSecretsParameters,
  ExportSecretsResult,
  ExportWalletAccountParameters,
  ExportWalletAccountResult,
  ExportWalletParameters,
  ExportWalletResult,
  GetActivitiesRequest,
  GetActivitiesResponse,
  GetActivityRequest,
  GetActivityResponse,
  GetApiKeyRequest,
  GetApiKeyResponse,
  GetApiKeysRequest,
  GetApiKeysResponse,
  GetAppProofsRequest,
  GetAppProofsResponse,
  GetAuthenticatorRequest,
  GetAuthenticatorResponse,
  GetAuthenticatorsRequest,
  GetAuthenticatorsResponse,
  GetBootProofRequest,
  GetBootProofResponse,
  GetGasUsageRequest,
  GetGasUsageResponse,
  GetIpAllowlistRequest,
  GetIpAllowlistResponse,
  GetLatestBootProofRequest,
  GetLatestBootProofResponse,
  GetMfaPoliciesRequest,
  GetMfaPoliciesResponse,
  GetMfaPolicyRequest,
  GetMfaPolicyResponse,
  GetMfaStatusRequest,
  GetMfaStatusResponse,
  GetNoncesRequest,
  GetNoncesResponse,
  GetOauth2CredentialRequest,
  GetOauth2CredentialResponse,
  GetOauthProvidersRequest,
  GetOauthProvidersResponse,
  GetOrganizationConfigsRequest,
  GetOrganizationConfigsResponse,
  GetOrganizationRequest,
  GetOrganizationResponse,
  GetPoliciesRequest,
  GetPoliciesResponse,
  GetPolicyEvaluationsRequest,
  GetPolicyEvaluationsResponse,
  GetPolicyRequest,
  GetPolicyResponse,
  GetPrivateKeyRequest,
  GetPrivateKeyResponse,
  GetPrivateKeysRequest,
  GetPrivateKeysResponse,
  GetSendTransactionStatusRequest,
  GetSendTransactionStatusResponse,
  GetSessionProfileRequest,
  GetSessionProfileResponse,
  GetSessionProfilesRequest,
  GetSessionProfilesResponse,
  GetSmartContractInterfaceRequest,
  GetSmartContractInterfaceResponse,
  GetSmartContractInterfacesRequest,
  GetSmartContractInterfacesResponse,
  GetSubOrgIdsRequest,
  GetSubOrgIdsResponse,
  GetUserRequest,
  GetUserResponse,
  GetUsersRequest,
  GetUsersResponse,
  GetVerifiedSubOrgIdsRequest,
  GetVerifiedSubOrgIdsResponse,
  GetWalletAccountRequest,
  GetWalletAccountResponse,
  GetWalletAccountsRequest,
  GetWalletAccountsResponse,
  GetWalletAddressBalancesRequest,
  GetWalletAddressBalancesResponse,
  GetWalletRequest,
  GetWalletResponse,
  GetWalletsRequest,
  GetWalletsResponse,
  GetWhoamiRequest,
  GetWhoamiResponse,
  ImportPrivateKeyParameters,
  ImportPrivateKeyResult,
  ImportSecretsParameters,
  ImportSecretsResult,
  ImportWalletParameters,
  ImportWalletResult,
  InitImportPrivateKeyParameters,
  InitImportPrivateKeyResult,
  InitImportSecretsParameters,
  InitImportSecretsResult,
  InitImportWalletParameters,
  InitImportWalletResult,
  InitOtpAuthParameters,
  InitOtpAuthResult,
  InitOtpAuthV1Parameters,
  InitOtpAuthV2Parameters,
  InitOtpParameters,
  InitOtpResult,
  InitOtpV1Parameters,
  InitUserEmailRecoveryParameters,
  InitUserEmailRecoveryResult,
  InitUserEmailRecoveryV1Parameters,
  ListEmailEventsRequest,
  ListEmailEventsResponse,
  ListEthTransactionHistoryRequest,
  ListEthTransactionHistoryResponse,
  ListOauth2CredentialsRequest,
  ListOauth2CredentialsResponse,
  ListPrivateKeyTagsRequest,
  ListPrivateKeyTagsResponse,
  ListSecretsRequest,
  ListSecretsResponse,
  ListSolTransactionHistoryRequest,
  ListSolTransactionHistoryResponse,
  ListSupportedAssetsRequest,
  ListSupportedAssetsResponse,
  ListUserTagsRequest,
  ListUserTagsResponse,
  ListWebhookEndpointsRequest,
  ListWebhookEndpointsResponse,
  Oauth2AuthenticateParameters,
  Oauth2AuthenticateResult,
  OauthLoginParameters,
  OauthLoginResult,
  OauthParameters,
  OauthResult,
  OtpAuthParameters,
  OtpAuthResult,
  OtpLoginParameters,
  OtpLoginResult,
  OtpLoginV1Parameters,
  RecoverUserParameters,
  RecoverUserResult,
  RejectActivityParameters,
  RemoveIpAllowlistParameters,
  RemoveIpAllowlistResult,
  RemoveOrganizationFeatureParameters,
  RemoveOrganizationFeatureResult,
  SetIpAllowlistParameters,
  SetIpAllowlistResult,
  SetOrganizationFeatureParameters,
  SetOrganizationFeatureResult,
  SignRawPayloadParameters,
  SignRawPayloadResult,
  SignRawPayloadsParameters,
  SignRawPayloadsResult,
  SignTransactionParameters,
  SignTransactionResult,
  SolSendTransactionParameters,
  SolSendTransactionResult,
  SolSendTransactionV1Parameters,
  StampLoginParameters,
  StampLoginResult,
  UpdateMfaPolicyParameters,
  UpdateMfaPolicyResult,
  UpdateOauth2CredentialParameters,
  UpdateOauth2CredentialResult,
  UpdateOrganizationNameParameters,
  UpdateOrganizationNameResult,
  UpdatePolicyParameters,
  UpdatePolicyResult,
  UpdatePolicyV1Parameters,
  UpdatePrivateKeyTagParameters,
  UpdatePrivateKeyTagResult,
  UpdateRootQuorumParameters,
  UpdateRootQuorumResult,
  UpdateUserEmailParameters,
  UpdateUserEmailResult,
  UpdateUserNameParameters,
  UpdateUserNameResult,
  UpdateUserParameters,
  UpdateUserPhoneNumberParameters,
  UpdateUserPhoneNumberResult,
  UpdateUserResult,
  UpdateUserTagParameters,
  UpdateUserTagResult,
  UpdateWalletParameters,
  UpdateWalletResult,
  UpdateWebhookEndpointParameters,
  UpdateWebhookEndpointResult,
  UpsertGasUsageConfigParameters,
  UpsertGasUsageConfigResult,
  VerifyOtpParameters,
  VerifyOtpResult,
  VerifyOtpV1Parameters,
} from "./operation-types.js";

/** The typed in-process methods, one per operation, named as `@turnkey/http`'s `TurnkeyClient` names them. */
export interface OperationMethods {
  /**
   * Create a new sub-organization. Each root user must have at least one valid credential: an API key, an authenticator, an OAuth provider, or an email or phone number with a login method enabled on the sub-organization (email, email OTP, or SMS).
   *
   * Activity `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8` at `POST /public/v1/submit/create_sub_organization`; the result is `activity.result.createSubOrganizationResultV8`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7`.
   * Policy: resource `ORGANIZATION`, action `CREATE`.
   */
  createSubOrganization(
    input: ActivityInput<CreateSubOrganizationParameters, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8">,
  ): Promise<ActivityResponseOf<{ createSubOrganizationResultV8: CreateSubOrganizationResult }>>;
  /**
   * `createSubOrganization` in the older version `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7`, which `type` names; the result is `activity.result.createSubOrganizationResultV7`.
   */
  createSubOrganization(
    input: OlderActivityInput<CreateSubOrganizationV7Parameters, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7">,
  ): Promise<ActivityResponseOf<{ createSubOrganizationResultV7: CreateSubOrganizationResult }>>;
  /**
   * Get basic information about your current API or WebAuthN user and their organization. Affords sub-organization look ups via parent organization for WebAuthN or API key users.
   *
   * Query at `POST /public/v1/query/whoami`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWhoami(input: GetWhoamiRequest): Promise<GetWhoamiResponse>;
  /**
   * Get details about an organization.
   *
   * Query at `POST /public/v1/query/get_organization`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOrganization(input: GetOrganizationRequest): Promise<GetOrganizationResponse>;
  /**
   * Get all suborg IDs associated given a parent org ID and an optional filter.
   *
   * Query at `POST /public/v1/query/list_suborgs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSubOrgIds(input: GetSubOrgIdsRequest): Promise<GetSubOrgIdsResponse>;
  /**
   * Update the name of an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME` at `POST /public/v1/submit/update_organization_name`; the result is `activity.result.updateOrganizationNameResult`.
   * Policy: none; only the root quorum can approve it.
   */
  updateOrganizationName(
    input: ActivityInput<UpdateOrganizationNameParameters, "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME">,
  ): Promise<ActivityResponseOf<{ updateOrganizationNameResult: UpdateOrganizationNameResult }>>;
  /**
   * Get quorum settings and features for an organization.
   *
   * Query at `POST /public/v1/query/get_organization_configs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOrganizationConfigs(input: GetOrganizationConfigsRequest): Promise<GetOrganizationConfigsResponse>;
  /**
   * Create or update IP allowlist and rules for organization or API key. The IP allowlist restricts API access to specific CIDR blocks. Organization-level allowlists apply to all API keys unless overridden by a key-specific allowlist.
   *
   * Activity `ACTIVITY_TYPE_SET_IP_ALLOWLIST` at `POST /public/v1/submit/set_ip_allowlist`; the result is `activity.result.setIpAllowlistResult`.
   * Policy: resource `CONFIG`, action `UPDATE`.
   */
  setIpAllowlist(
    input: ActivityInput<SetIpAllowlistParameters, "ACTIVITY_TYPE_SET_IP_ALLOWLIST">,
  ): Promise<ActivityResponseOf<{ setIpAllowlistResult: SetIpAllowlistResult }>>;
  /**
   * Delete IP allowlist and all associated rules for organization or API key. After removal, access will be determined by organization-level allowlist (for API keys) or allowed from all IPs (for organizations).
   *
   * Activity `ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST` at `POST /public/v1/submit/remove_ip_allowlist`; the result is `activity.result.removeIpAllowlistResult`.
   * Policy: resource `CONFIG`, action `DELETE`.
   */
  removeIpAllowlist(
    input: ActivityInput<RemoveIpAllowlistParameters, "ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST">,
  ): Promise<ActivityResponseOf<{ removeIpAllowlistResult: RemoveIpAllowlistResult }>>;
  /**
   * Get IP allowlist and rules for an organization.
   *
   * Query at `POST /public/v1/query/get_ip_allowlist`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getIpAllowlist(input: GetIpAllowlistRequest): Promise<GetIpAllowlistResponse>;
  /**
   * Create invitations to join an existing organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_INVITATIONS` at `POST /public/v1/submit/create_invitations`; the result is `activity.result.createInvitationsResult`.
   * Policy: resource `INVITATION`, action `CREATE`.
   */
  createInvitations(
    input: ActivityInput<CreateInvitationsParameters, "ACTIVITY_TYPE_CREATE_INVITATIONS">,
  ): Promise<ActivityResponseOf<{ createInvitationsResult: CreateInvitationsResult }>>;
  /**
   * Delete an existing invitation.
   *
   * Activity `ACTIVITY_TYPE_DELETE_INVITATION` at `POST /public/v1/submit/delete_invitation`; the result is `activity.result.deleteInvitationResult`.
   * Policy: resource `INVITATION`, action `DELETE`.
   */
  deleteInvitation(
    input: ActivityInput<DeleteInvitationParameters, "ACTIVITY_TYPE_DELETE_INVITATION">,
  ): Promise<ActivityResponseOf<{ deleteInvitationResult: DeleteInvitationResult }>>;
  /**
   * Get details about an activity.
   *
   * Query at `POST /public/v1/query/get_activity`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getActivity(input: GetActivityRequest): Promise<GetActivityResponse>;
  /**
   * List all activities within an organization.
   *
   * Query at `POST /public/v1/query/list_activities`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getActivities(input: GetActivitiesRequest): Promise<GetActivitiesResponse>;
  /**
   * Create a wallet and derive addresses.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WALLET` at `POST /public/v1/submit/create_wallet`; the result is `activity.result.createWalletResult`.
   * Policy: resource `WALLET`, action `CREATE`.
   */
  createWallet(
    input: ActivityInput<CreateWalletParameters, "ACTIVITY_TYPE_CREATE_WALLET">,
  ): Promise<ActivityResponseOf<{ createWalletResult: CreateWalletResult }>>;
  /**
   * Derive additional addresses using an existing wallet.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS` at `POST /public/v1/submit/create_wallet_accounts`; the result is `activity.result.createWalletAccountsResult`.
   * Policy: resource `WALLET`, action `CREATE`.
   */
  createWalletAccounts(
    input: ActivityInput<CreateWalletAccountsParameters, "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS">,
  ): Promise<ActivityResponseOf<{ createWalletAccountsResult: CreateWalletAccountsResult }>>;
  /**
   * Update a wallet for an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_WALLET` at `POST /public/v1/submit/update_wallet`; the result is `activity.result.updateWalletResult`.
   * Policy: resource `WALLET`, action `UPDATE`.
   */
  updateWallet(
    input: ActivityInput<UpdateWalletParameters, "ACTIVITY_TYPE_UPDATE_WALLET">,
  ): Promise<ActivityResponseOf<{ updateWalletResult: UpdateWalletResult }>>;
  /**
   * Get details about a wallet.
   *
   * Query at `POST /public/v1/query/get_wallet`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWallet(input: GetWalletRequest): Promise<GetWalletResponse>;
  /**
   * List all wallets within an organization.
   *
   * Query at `POST /public/v1/query/list_wallets`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWallets(input: GetWalletsRequest): Promise<GetWalletsResponse>;
  /**
   * Get a single wallet account.
   *
   * Query at `POST /public/v1/query/get_wallet_account`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWalletAccount(input: GetWalletAccountRequest): Promise<GetWalletAccountResponse>;
  /**
   * List all accounts within a wallet.
   *
   * Query at `POST /public/v1/query/list_wallet_accounts`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWalletAccounts(input: GetWalletAccountsRequest): Promise<GetWalletAccountsResponse>;
  /**
   * Create new private keys.
   *
   * Activity `ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2` at `POST /public/v1/submit/create_private_keys`; the result is `activity.result.createPrivateKeysResultV2`.
   * Policy: resource `PRIVATE_KEY`, action `CREATE`.
   */
  createPrivateKeys(
    input: ActivityInput<CreatePrivateKeysParameters, "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2">,
  ): Promise<ActivityResponseOf<{ createPrivateKeysResultV2: CreatePrivateKeysResult }>>;
  /**
   * Create a private key tag and add it to private keys.
   *
   * Activity `ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG` at `POST /public/v1/submit/create_private_key_tag`; the result is `activity.result.createPrivateKeyTagResult`.
   * Policy: resource `PRIVATE_KEY`, action `CREATE`.
   */
  createPrivateKeyTag(
    input: ActivityInput<CreatePrivateKeyTagParameters, "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG">,
  ): Promise<ActivityResponseOf<{ createPrivateKeyTagResult: CreatePrivateKeyTagResult }>>;
  /**
   * Update human-readable name or associated private keys. Note that this activity is atomic: all of the updates will succeed at once, or all of them will fail.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG` at `POST /public/v1/submit/update_private_key_tag`; the result is `activity.result.updatePrivateKeyTagResult`.
   * Policy: resource `PRIVATE_KEY`, action `UPDATE`.
   */
  updatePrivateKeyTag(
    input: ActivityInput<UpdatePrivateKeyTagParameters, "ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG">,
  ): Promise<ActivityResponseOf<{ updatePrivateKeyTagResult: UpdatePrivateKeyTagResult }>>;
  /**
   * Delete private key tags within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS` at `POST /public/v1/submit/delete_private_key_tags`; the result is `activity.result.deletePrivateKeyTagsResult`.
   * Policy: resource `PRIVATE_KEY`, action `DELETE`.
   */
  deletePrivateKeyTags(
    input: ActivityInput<DeletePrivateKeyTagsParameters, "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS">,
  ): Promise<ActivityResponseOf<{ deletePrivateKeyTagsResult: DeletePrivateKeyTagsResult }>>;
  /**
   * Get details about a private key.
   *
   * Query at `POST /public/v1/query/get_private_key`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPrivateKey(input: GetPrivateKeyRequest): Promise<GetPrivateKeyResponse>;
  /**
   * List all private keys within an organization.
   *
   * Query at `POST /public/v1/query/list_private_keys`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPrivateKeys(input: GetPrivateKeysRequest): Promise<GetPrivateKeysResponse>;
  /**
   * List all private key tags within an organization.
   *
   * Query at `POST /public/v1/query/list_private_key_tags`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listPrivateKeyTags(input: ListPrivateKeyTagsRequest): Promise<ListPrivateKeyTagsResponse>;
  /**
   * Sign a raw payload.
   *
   * Activity `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2` at `POST /public/v1/submit/sign_raw_payload`; the result is `activity.result.signRawPayloadResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signRawPayload(
    input: ActivityInput<SignRawPayloadParameters, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2">,
  ): Promise<ActivityResponseOf<{ signRawPayloadResult: SignRawPayloadResult }>>;
  /**
   * Sign multiple raw payloads with the same signing parameters.
   *
   * Activity `ACTIVITY_TYPE_SIGN_RAW_PAYLOADS` at `POST /public/v1/submit/sign_raw_payloads`; the result is `activity.result.signRawPayloadsResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signRawPayloads(
    input: ActivityInput<SignRawPayloadsParameters, "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS">,
  ): Promise<ActivityResponseOf<{ signRawPayloadsResult: SignRawPayloadsResult }>>;
  /**
   * Sign a transaction.
   *
   * Activity `ACTIVITY_TYPE_SIGN_TRANSACTION_V2` at `POST /public/v1/submit/sign_transaction`; the result is `activity.result.signTransactionResult`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  signTransaction(
    input: ActivityInput<SignTransactionParameters, "ACTIVITY_TYPE_SIGN_TRANSACTION_V2">,
  ): Promise<ActivityResponseOf<{ signTransactionResult: SignTransactionResult }>>;
  /**
   * Submit a transaction intent describing an EVM transaction you would like to broadcast.
   *
   * Activity `ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2` at `POST /public/v1/submit/eth_send_transaction`; the result is `activity.result.ethSendTransactionResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_ETH_SEND_TRANSACTION`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  ethSendTransaction(
    input: ActivityInput<EthSendTransactionParameters, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2">,
  ): Promise<ActivityResponseOf<{ ethSendTransactionResultV2: EthSendTransactionResult }>>;
  /**
   * `ethSendTransaction` in the older version `ACTIVITY_TYPE_ETH_SEND_TRANSACTION`, which `type` names; the result is `activity.result.ethSendTransactionResult`.
   */
  ethSendTransaction(
    input: OlderActivityInput<EthSendTransactionV1Parameters, "ACTIVITY_TYPE_ETH_SEND_TRANSACTION">,
  ): Promise<ActivityResponseOf<{ ethSendTransactionResult: EthSendTransactionResult }>>;
  /**
   * Submit a raw transaction (serialized and signed) for broadcasting to the network.
   *
   * Activity `ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION` at `POST /public/v1/submit/eth_send_raw_transaction`; the result is `activity.result.ethSendRawTransactionResult`.
   * Policy: none; only the root quorum can approve it.
   */
  ethSendRawTransaction(
    input: ActivityInput<EthSendRawTransactionParameters, "ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION">,
  ): Promise<ActivityResponseOf<{ ethSendRawTransactionResult: EthSendRawTransactionResult }>>;
  /**
   * Submit an EIP-7702 undelegation transaction.
   *
   * Activity `ACTIVITY_TYPE_ETH_UNDELEGATE_7702` at `POST /public/v1/submit/eth_undelegate_7702`; the result is `activity.result.ethUndelegate7702Result`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  ethUndelegate7702(
    input: ActivityInput<EthUndelegate7702Parameters, "ACTIVITY_TYPE_ETH_UNDELEGATE_7702">,
  ): Promise<ActivityResponseOf<{ ethUndelegate7702Result: EthUndelegate7702Result }>>;
  /**
   * Submit a transaction intent describing an SVM transaction you would like to broadcast. Supports single- and multi-signer intents via activity type versioning.
   *
   * Activity `ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2` at `POST /public/v1/submit/sol_send_transaction`; the result is `activity.result.solSendTransactionResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_SOL_SEND_TRANSACTION`.
   * Policy: resource `PRIVATE_KEY`, action `SIGN`.
   */
  solSendTransaction(
    input: ActivityInput<SolSendTransactionParameters, "ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2">,
  ): Promise<ActivityResponseOf<{ solSendTransactionResultV2: SolSendTransactionResult }>>;
  /**
   * `solSendTransaction` in the older version `ACTIVITY_TYPE_SOL_SEND_TRANSACTION`, which `type` names; the result is `activity.result.solSendTransactionResult`.
   */
  solSendTransaction(
    input: OlderActivityInput<SolSendTransactionV1Parameters, "ACTIVITY_TYPE_SOL_SEND_TRANSACTION">,
  ): Promise<ActivityResponseOf<{ solSendTransactionResult: SolSendTransactionResult }>>;
  /**
   * Get the status of a send transaction request.
   *
   * Query at `POST /public/v1/query/get_send_transaction_status`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSendTransactionStatus(input: GetSendTransactionStatusRequest): Promise<GetSendTransactionStatusResponse>;
  /**
   * Get nonce values for an address on a given network. Can fetch the standard on-chain nonce and/or the gas station nonce used for sponsored transactions.
   *
   * Query at `POST /public/v1/query/get_nonces`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getNonces(input: GetNoncesRequest): Promise<GetNoncesResponse>;
  /**
   * Get balances of supported assets for an address on the specified network. Only non-zero balances are returned.
   *
   * Query at `POST /public/v1/query/get_wallet_address_balances`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getWalletAddressBalances(input: GetWalletAddressBalancesRequest): Promise<GetWalletAddressBalancesResponse>;
  /**
   * List supported assets for the specified network.
   *
   * Query at `POST /public/v1/query/list_supported_assets`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listSupportedAssets(input: ListSupportedAssetsRequest): Promise<ListSupportedAssetsResponse>;
  /**
   * List Ethereum transaction history for a wallet address on the specified network.
   *
   * Query at `POST /public/v1/query/list_eth_transaction_history`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listEthTransactionHistory(input: ListEthTransactionHistoryRequest): Promise<ListEthTransactionHistoryResponse>;
  /**
   * List Solana transaction history for a wallet address on the specified network.
   *
   * Query at `POST /public/v1/query/list_sol_transaction_history`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listSolTransactionHistory(input: ListSolTransactionHistoryRequest): Promise<ListSolTransactionHistoryResponse>;
  /**
   * Get gas usage and gas limits for either the parent organization or a sub-organization.
   *
   * Query at `POST /public/v1/query/get_gas_usage`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getGasUsage(input: GetGasUsageRequest): Promise<GetGasUsageResponse>;
  /**
   * upsertGasUsageConfig.
   *
   * Activity `ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG` at `POST /public/v1/submit/upsert_gas_usage_config`; the result is `activity.result.upsertGasUsageConfigResult`.
   * The hosted API's description names this activity but no route for it: the route is custodian's.
   * Policy: resource `SPONSORSHIP`, action `UPDATE`.
   */
  upsertGasUsageConfig(
    input: ActivityInput<UpsertGasUsageConfigParameters, "ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG">,
  ): Promise<ActivityResponseOf<{ upsertGasUsageConfigResult: UpsertGasUsageConfigResult }>>;
  /**
   * Enable authentication for end users with an OAuth 2.0 provider.
   *
   * Activity `ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL` at `POST /public/v1/submit/create_oauth2_credential`; the result is `activity.result.createOauth2CredentialResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  createOauth2Credential(
    input: ActivityInput<CreateOauth2CredentialParameters, "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL">,
  ): Promise<ActivityResponseOf<{ createOauth2CredentialResult: CreateOauth2CredentialResult }>>;
  /**
   * Update an OAuth 2.0 provider credential.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL` at `POST /public/v1/submit/update_oauth2_credential`; the result is `activity.result.updateOauth2CredentialResult`.
   * Policy: resource `AUTH`, action `UPDATE`.
   */
  updateOauth2Credential(
    input: ActivityInput<UpdateOauth2CredentialParameters, "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL">,
  ): Promise<ActivityResponseOf<{ updateOauth2CredentialResult: UpdateOauth2CredentialResult }>>;
  /**
   * Disable authentication for end users with an OAuth 2.0 provider.
   *
   * Activity `ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL` at `POST /public/v1/submit/delete_oauth2_credential`; the result is `activity.result.deleteOauth2CredentialResult`.
   * Policy: resource `AUTH`, action `DELETE`.
   */
  deleteOauth2Credential(
    input: ActivityInput<DeleteOauth2CredentialParameters, "ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL">,
  ): Promise<ActivityResponseOf<{ deleteOauth2CredentialResult: DeleteOauth2CredentialResult }>>;
  /**
   * Authenticate a user with an OAuth 2.0 provider and receive an OIDC token to use with the LoginWithOAuth or CreateSubOrganization activities.
   *
   * Activity `ACTIVITY_TYPE_OAUTH2_AUTHENTICATE` at `POST /public/v1/submit/oauth2_authenticate`; the result is `activity.result.oauth2AuthenticateResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  oauth2Authenticate(
    input: ActivityInput<Oauth2AuthenticateParameters, "ACTIVITY_TYPE_OAUTH2_AUTHENTICATE">,
  ): Promise<ActivityResponseOf<{ oauth2AuthenticateResult: Oauth2AuthenticateResult }>>;
  /**
   * Get details about an OAuth 2.0 credential.
   *
   * Query at `POST /public/v1/query/get_oauth2_credential`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOauth2Credential(input: GetOauth2CredentialRequest): Promise<GetOauth2CredentialResponse>;
  /**
   * List all OAuth 2.0 credentials within an organization.
   *
   * Query at `POST /public/v1/query/list_oauth2_credentials`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listOauth2Credentials(input: ListOauth2CredentialsRequest): Promise<ListOauth2CredentialsResponse>;
  /**
   * Create an ABI/IDL in JSON.
   *
   * Activity `ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE` at `POST /public/v1/submit/create_smart_contract_interface`; the result is `activity.result.createSmartContractInterfaceResult`.
   * Policy: resource `SMART_CONTRACT_INTERFACE`, action `CREATE`.
   */
  createSmartContractInterface(
    input: ActivityInput<CreateSmartContractInterfaceParameters, "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE">,
  ): Promise<ActivityResponseOf<{ createSmartContractInterfaceResult: CreateSmartContractInterfaceResult }>>;
  /**
   * Delete a smart contract interface.
   *
   * Activity `ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE` at `POST /public/v1/submit/delete_smart_contract_interface`; the result is `activity.result.deleteSmartContractInterfaceResult`.
   * Policy: resource `SMART_CONTRACT_INTERFACE`, action `DELETE`.
   */
  deleteSmartContractInterface(
    input: ActivityInput<DeleteSmartContractInterfaceParameters, "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE">,
  ): Promise<ActivityResponseOf<{ deleteSmartContractInterfaceResult: DeleteSmartContractInterfaceResult }>>;
  /**
   * Get details about a smart contract interface.
   *
   * Query at `POST /public/v1/query/get_smart_contract_interface`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSmartContractInterface(input: GetSmartContractInterfaceRequest): Promise<GetSmartContractInterfaceResponse>;
  /**
   * List all smart contract interfaces within an organization.
   *
   * Query at `POST /public/v1/query/list_smart_contract_interfaces`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSmartContractInterfaces(input: GetSmartContractInterfacesRequest): Promise<GetSmartContractInterfacesResponse>;
  /**
   * Create users in an existing organization. Each user must have at least one valid credential: an API key, an authenticator, an OAuth provider, or an email or phone number with a login method enabled on the organization (email, email OTP, or SMS).
   *
   * Activity `ACTIVITY_TYPE_CREATE_USERS_V4` at `POST /public/v1/submit/create_users`; the result is `activity.result.createUsersResult`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_USERS_V3`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createUsers(
    input: ActivityInput<CreateUsersParameters, "ACTIVITY_TYPE_CREATE_USERS_V4">,
  ): Promise<ActivityResponseOf<{ createUsersResult: CreateUsersResult }>>;
  /**
   * `createUsers` in the older version `ACTIVITY_TYPE_CREATE_USERS_V3`, which `type` names; the result is `activity.result.createUsersResult`.
   */
  createUsers(
    input: OlderActivityInput<CreateUsersV3Parameters, "ACTIVITY_TYPE_CREATE_USERS_V3">,
  ): Promise<ActivityResponseOf<{ createUsersResult: CreateUsersResult }>>;
  /**
   * Create API-only users in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_API_ONLY_USERS` at `POST /public/v1/submit/create_api_only_users`; the result is `activity.result.createApiOnlyUsersResult`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createApiOnlyUsers(
    input: ActivityInput<CreateApiOnlyUsersParameters, "ACTIVITY_TYPE_CREATE_API_ONLY_USERS">,
  ): Promise<ActivityResponseOf<{ createApiOnlyUsersResult: CreateApiOnlyUsersResult }>>;
  /**
   * Update a user in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER` at `POST /public/v1/submit/update_user`; the result is `activity.result.updateUserResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUser(
    input: ActivityInput<UpdateUserParameters, "ACTIVITY_TYPE_UPDATE_USER">,
  ): Promise<ActivityResponseOf<{ updateUserResult: UpdateUserResult }>>;
  /**
   * Update a user's name in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_NAME` at `POST /public/v1/submit/update_user_name`; the result is `activity.result.updateUserNameResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserName(
    input: ActivityInput<UpdateUserNameParameters, "ACTIVITY_TYPE_UPDATE_USER_NAME">,
  ): Promise<ActivityResponseOf<{ updateUserNameResult: UpdateUserNameResult }>>;
  /**
   * Update a user's email in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_EMAIL` at `POST /public/v1/submit/update_user_email`; the result is `activity.result.updateUserEmailResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserEmail(
    input: ActivityInput<UpdateUserEmailParameters, "ACTIVITY_TYPE_UPDATE_USER_EMAIL">,
  ): Promise<ActivityResponseOf<{ updateUserEmailResult: UpdateUserEmailResult }>>;
  /**
   * Update a user's phone number in an existing organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER` at `POST /public/v1/submit/update_user_phone_number`; the result is `activity.result.updateUserPhoneNumberResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserPhoneNumber(
    input: ActivityInput<UpdateUserPhoneNumberParameters, "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER">,
  ): Promise<ActivityResponseOf<{ updateUserPhoneNumberResult: UpdateUserPhoneNumberResult }>>;
  /**
   * Delete users within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_USERS` at `POST /public/v1/submit/delete_users`; the result is `activity.result.deleteUsersResult`.
   * Policy: resource `USER`, action `DELETE`.
   */
  deleteUsers(
    input: ActivityInput<DeleteUsersParameters, "ACTIVITY_TYPE_DELETE_USERS">,
  ): Promise<ActivityResponseOf<{ deleteUsersResult: DeleteUsersResult }>>;
  /**
   * Get details about a user.
   *
   * Query at `POST /public/v1/query/get_user`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getUser(input: GetUserRequest): Promise<GetUserResponse>;
  /**
   * List all users within an organization.
   *
   * Query at `POST /public/v1/query/list_users`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getUsers(input: GetUsersRequest): Promise<GetUsersResponse>;
  /**
   * Add API keys to an existing user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_API_KEYS_V2` at `POST /public/v1/submit/create_api_keys`; the result is `activity.result.createApiKeysResult`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createApiKeys(
    input: ActivityInput<CreateApiKeysParameters, "ACTIVITY_TYPE_CREATE_API_KEYS_V2">,
  ): Promise<ActivityResponseOf<{ createApiKeysResult: CreateApiKeysResult }>>;
  /**
   * Remove api keys from a user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_API_KEYS` at `POST /public/v1/submit/delete_api_keys`; the result is `activity.result.deleteApiKeysResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteApiKeys(
    input: ActivityInput<DeleteApiKeysParameters, "ACTIVITY_TYPE_DELETE_API_KEYS">,
  ): Promise<ActivityResponseOf<{ deleteApiKeysResult: DeleteApiKeysResult }>>;
  /**
   * Get details about an API key.
   *
   * Query at `POST /public/v1/query/get_api_key`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getApiKey(input: GetApiKeyRequest): Promise<GetApiKeyResponse>;
  /**
   * Get details about API keys for a user.
   *
   * Query at `POST /public/v1/query/get_api_keys`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getApiKeys(input: GetApiKeysRequest): Promise<GetApiKeysResponse>;
  /**
   * Create authenticators to authenticate requests to Turnkey.
   *
   * Activity `ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2` at `POST /public/v1/submit/create_authenticators`; the result is `activity.result.createAuthenticatorsResult`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createAuthenticators(
    input: ActivityInput<CreateAuthenticatorsParameters, "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2">,
  ): Promise<ActivityResponseOf<{ createAuthenticatorsResult: CreateAuthenticatorsResult }>>;
  /**
   * Remove authenticators from a user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_AUTHENTICATORS` at `POST /public/v1/submit/delete_authenticators`; the result is `activity.result.deleteAuthenticatorsResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteAuthenticators(
    input: ActivityInput<DeleteAuthenticatorsParameters, "ACTIVITY_TYPE_DELETE_AUTHENTICATORS">,
  ): Promise<ActivityResponseOf<{ deleteAuthenticatorsResult: DeleteAuthenticatorsResult }>>;
  /**
   * Get details about an authenticator.
   *
   * Query at `POST /public/v1/query/get_authenticator`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getAuthenticator(input: GetAuthenticatorRequest): Promise<GetAuthenticatorResponse>;
  /**
   * Get details about authenticators for a user.
   *
   * Query at `POST /public/v1/query/get_authenticators`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getAuthenticators(input: GetAuthenticatorsRequest): Promise<GetAuthenticatorsResponse>;
  /**
   * Create Oauth providers for a specified user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2` at `POST /public/v1/submit/create_oauth_providers`; the result is `activity.result.createOauthProvidersResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  createOauthProviders(
    input: ActivityInput<CreateOauthProvidersParameters, "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2">,
  ): Promise<ActivityResponseOf<{ createOauthProvidersResultV2: CreateOauthProvidersResult }>>;
  /**
   * `createOauthProviders` in the older version `ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS`, which `type` names; the result is `activity.result.createOauthProvidersResult`.
   */
  createOauthProviders(
    input: OlderActivityInput<CreateOauthProvidersV1Parameters, "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS">,
  ): Promise<ActivityResponseOf<{ createOauthProvidersResult: CreateOauthProvidersResult }>>;
  /**
   * Remove Oauth providers for a specified user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS` at `POST /public/v1/submit/delete_oauth_providers`; the result is `activity.result.deleteOauthProvidersResult`.
   * Policy: resource `CREDENTIAL`, action `DELETE`.
   */
  deleteOauthProviders(
    input: ActivityInput<DeleteOauthProvidersParameters, "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS">,
  ): Promise<ActivityResponseOf<{ deleteOauthProvidersResult: DeleteOauthProvidersResult }>>;
  /**
   * Get details about Oauth providers for a user.
   *
   * Query at `POST /public/v1/query/get_oauth_providers`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getOauthProviders(input: GetOauthProvidersRequest): Promise<GetOauthProvidersResponse>;
  /**
   * Create a user tag and add it to users.
   *
   * Activity `ACTIVITY_TYPE_CREATE_USER_TAG` at `POST /public/v1/submit/create_user_tag`; the result is `activity.result.createUserTagResult`.
   * Policy: resource `USER`, action `CREATE`.
   */
  createUserTag(
    input: ActivityInput<CreateUserTagParameters, "ACTIVITY_TYPE_CREATE_USER_TAG">,
  ): Promise<ActivityResponseOf<{ createUserTagResult: CreateUserTagResult }>>;
  /**
   * Update human-readable name or associated users. Note that this activity is atomic: all of the updates will succeed at once, or all of them will fail.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_USER_TAG` at `POST /public/v1/submit/update_user_tag`; the result is `activity.result.updateUserTagResult`.
   * Policy: resource `USER`, action `UPDATE`.
   */
  updateUserTag(
    input: ActivityInput<UpdateUserTagParameters, "ACTIVITY_TYPE_UPDATE_USER_TAG">,
  ): Promise<ActivityResponseOf<{ updateUserTagResult: UpdateUserTagResult }>>;
  /**
   * Delete user tags within an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_USER_TAGS` at `POST /public/v1/submit/delete_user_tags`; the result is `activity.result.deleteUserTagsResult`.
   * Policy: resource `USER`, action `DELETE`.
   */
  deleteUserTags(
    input: ActivityInput<DeleteUserTagsParameters, "ACTIVITY_TYPE_DELETE_USER_TAGS">,
  ): Promise<ActivityResponseOf<{ deleteUserTagsResult: DeleteUserTagsResult }>>;
  /**
   * List all user tags within an organization.
   *
   * Query at `POST /public/v1/query/list_user_tags`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listUserTags(input: ListUserTagsRequest): Promise<ListUserTagsResponse>;
  /**
   * Create a new policy.
   *
   * Activity `ACTIVITY_TYPE_CREATE_POLICY_V3` at `POST /public/v1/submit/create_policy`; the result is `activity.result.createPolicyResult`.
   * Also accepts `type` `ACTIVITY_TYPE_CREATE_POLICY_V2`, `ACTIVITY_TYPE_CREATE_POLICY`.
   * Policy: resource `POLICY`, action `CREATE`.
   */
  createPolicy(
    input: ActivityInput<CreatePolicyParameters, "ACTIVITY_TYPE_CREATE_POLICY_V3">,
  ): Promise<ActivityResponseOf<{ createPolicyResult: CreatePolicyResult }>>;
  /**
   * `createPolicy` in the older version `ACTIVITY_TYPE_CREATE_POLICY_V2`, which `type` names; the result is `activity.result.createPolicyResult`.
   */
  createPolicy(
    input: OlderActivityInput<CreatePolicyV2Parameters, "ACTIVITY_TYPE_CREATE_POLICY_V2">,
  ): Promise<ActivityResponseOf<{ createPolicyResult: CreatePolicyResult }>>;
  /**
   * `createPolicy` in the older version `ACTIVITY_TYPE_CREATE_POLICY`, which `type` names; the result is `activity.result.createPolicyResult`.
   */
  createPolicy(
    input: OlderActivityInput<CreatePolicyV1Parameters, "ACTIVITY_TYPE_CREATE_POLICY">,
  ): Promise<ActivityResponseOf<{ createPolicyResult: CreatePolicyResult }>>;
  /**
   * Create new policies.
   *
   * Activity `ACTIVITY_TYPE_CREATE_POLICIES` at `POST /public/v1/submit/create_policies`; the result is `activity.result.createPoliciesResult`.
   * Policy: resource `POLICY`, action `CREATE`.
   */
  createPolicies(
    input: ActivityInput<CreatePoliciesParameters, "ACTIVITY_TYPE_CREATE_POLICIES">,
  ): Promise<ActivityResponseOf<{ createPoliciesResult: CreatePoliciesResult }>>;
  /**
   * Update an existing policy.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_POLICY_V2` at `POST /public/v1/submit/update_policy`; the result is `activity.result.updatePolicyResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_UPDATE_POLICY`.
   * Policy: resource `POLICY`, action `UPDATE`.
   */
  updatePolicy(
    input: ActivityInput<UpdatePolicyParameters, "ACTIVITY_TYPE_UPDATE_POLICY_V2">,
  ): Promise<ActivityResponseOf<{ updatePolicyResultV2: UpdatePolicyResult }>>;
  /**
   * `updatePolicy` in the older version `ACTIVITY_TYPE_UPDATE_POLICY`, which `type` names; the result is `activity.result.updatePolicyResult`.
   */
  updatePolicy(
    input: OlderActivityInput<UpdatePolicyV1Parameters, "ACTIVITY_TYPE_UPDATE_POLICY">,
  ): Promise<ActivityResponseOf<{ updatePolicyResult: UpdatePolicyResult }>>;
  /**
   * Delete an existing policy.
   *
   * Activity `ACTIVITY_TYPE_DELETE_POLICY` at `POST /public/v1/submit/delete_policy`; the result is `activity.result.deletePolicyResult`.
   * Policy: resource `POLICY`, action `DELETE`.
   */
  deletePolicy(
    input: ActivityInput<DeletePolicyParameters, "ACTIVITY_TYPE_DELETE_POLICY">,
  ): Promise<ActivityResponseOf<{ deletePolicyResult: DeletePolicyResult }>>;
  /**
   * Delete existing policies.
   *
   * Activity `ACTIVITY_TYPE_DELETE_POLICIES` at `POST /public/v1/submit/delete_policies`; the result is `activity.result.deletePoliciesResult`.
   * Policy: resource `POLICY`, action `DELETE`.
   */
  deletePolicies(
    input: ActivityInput<DeletePoliciesParameters, "ACTIVITY_TYPE_DELETE_POLICIES">,
  ): Promise<ActivityResponseOf<{ deletePoliciesResult: DeletePoliciesResult }>>;
  /**
   * Get details about a policy.
   *
   * Query at `POST /public/v1/query/get_policy`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicy(input: GetPolicyRequest): Promise<GetPolicyResponse>;
  /**
   * List all policies within an organization.
   *
   * Query at `POST /public/v1/query/list_policies`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicies(input: GetPoliciesRequest): Promise<GetPoliciesResponse>;
  /**
   * Get the policy evaluations for an activity.
   *
   * Query at `POST /public/v1/query/get_policy_evaluations`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getPolicyEvaluations(input: GetPolicyEvaluationsRequest): Promise<GetPolicyEvaluationsResponse>;
  /**
   * Create a new MFA policy for a user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_MFA_POLICY` at `POST /public/v1/submit/create_mfa_policy`; the result is `activity.result.createMfaPolicyResult`.
   * Policy: resource `MFA_POLICY`, action `CREATE`.
   */
  createMfaPolicy(
    input: ActivityInput<CreateMfaPolicyParameters, "ACTIVITY_TYPE_CREATE_MFA_POLICY">,
  ): Promise<ActivityResponseOf<{ createMfaPolicyResult: CreateMfaPolicyResult }>>;
  /**
   * Update an MFA policy for a user.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_MFA_POLICY` at `POST /public/v1/submit/update_mfa_policy`; the result is `activity.result.updateMfaPolicyResult`.
   * Policy: resource `MFA_POLICY`, action `UPDATE`.
   */
  updateMfaPolicy(
    input: ActivityInput<UpdateMfaPolicyParameters, "ACTIVITY_TYPE_UPDATE_MFA_POLICY">,
  ): Promise<ActivityResponseOf<{ updateMfaPolicyResult: UpdateMfaPolicyResult }>>;
  /**
   * Delete an MFA policy for a user.
   *
   * Activity `ACTIVITY_TYPE_DELETE_MFA_POLICY` at `POST /public/v1/submit/delete_mfa_policy`; the result is `activity.result.deleteMfaPolicyResult`.
   * Policy: resource `MFA_POLICY`, action `DELETE`.
   */
  deleteMfaPolicy(
    input: ActivityInput<DeleteMfaPolicyParameters, "ACTIVITY_TYPE_DELETE_MFA_POLICY">,
  ): Promise<ActivityResponseOf<{ deleteMfaPolicyResult: DeleteMfaPolicyResult }>>;
  /**
   * Get a single MFA policy for a user.
   *
   * Query at `POST /public/v1/query/get_mfa_policy`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getMfaPolicy(input: GetMfaPolicyRequest): Promise<GetMfaPolicyResponse>;
  /**
   * Get all MFA policies for a user.
   *
   * Query at `POST /public/v1/query/get_mfa_policies`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getMfaPolicies(input: GetMfaPoliciesRequest): Promise<GetMfaPoliciesResponse>;
  /**
   * Get the MFA status of an activity for a specific user or all voting users.
   *
   * Query at `POST /public/v1/query/get_mfa_status`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getMfaStatus(input: GetMfaStatusRequest): Promise<GetMfaStatusResponse>;
  /**
   * Create a new session profile for an organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_SESSION_PROFILE` at `POST /public/v1/submit/create_session_profile`; the result is `activity.result.createSessionProfileResult`.
   * Policy: resource `SESSION_PROFILE`, action `CREATE`.
   */
  createSessionProfile(
    input: ActivityInput<CreateSessionProfileParameters, "ACTIVITY_TYPE_CREATE_SESSION_PROFILE">,
  ): Promise<ActivityResponseOf<{ createSessionProfileResult: CreateSessionProfileResult }>>;
  /**
   * Get a single session profile for an organization.
   *
   * Query at `POST /public/v1/query/get_session_profile`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSessionProfile(input: GetSessionProfileRequest): Promise<GetSessionProfileResponse>;
  /**
   * Get all session profiles for an organization.
   *
   * Query at `POST /public/v1/query/get_session_profiles`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getSessionProfiles(input: GetSessionProfilesRequest): Promise<GetSessionProfilesResponse>;
  /**
   * Approve an activity.
   *
   * Activity `ACTIVITY_TYPE_APPROVE_ACTIVITY` at `POST /public/v1/submit/approve_activity`.
   * Policy: none of its own; the vote counts toward the consensus of the activity it names.
   */
  approveActivity(
    input: ActivityInput<ApproveActivityParameters, "ACTIVITY_TYPE_APPROVE_ACTIVITY">,
  ): Promise<ActivityResponse>;
  /**
   * Reject an activity.
   *
   * Activity `ACTIVITY_TYPE_REJECT_ACTIVITY` at `POST /public/v1/submit/reject_activity`.
   * Policy: none of its own; the vote counts toward the consensus of the activity it names.
   */
  rejectActivity(
    input: ActivityInput<RejectActivityParameters, "ACTIVITY_TYPE_REJECT_ACTIVITY">,
  ): Promise<ActivityResponse>;
  /**
   * Set the threshold and members of the root quorum. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_ROOT_QUORUM` at `POST /public/v1/submit/update_root_quorum`; the result is `activity.result.updateRootQuorumResult`.
   * Policy: none; only the root quorum can approve it.
   */
  updateRootQuorum(
    input: ActivityInput<UpdateRootQuorumParameters, "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM">,
  ): Promise<ActivityResponseOf<{ updateRootQuorumResult: UpdateRootQuorumResult }>>;
  /**
   * Authenticate a user with an OIDC token (Oauth).
   *
   * Activity `ACTIVITY_TYPE_OAUTH` at `POST /public/v1/submit/oauth`; the result is `activity.result.oauthResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  oauth(
    input: ActivityInput<OauthParameters, "ACTIVITY_TYPE_OAUTH">,
  ): Promise<ActivityResponseOf<{ oauthResult: OauthResult }>>;
  /**
   * Create a read write session for a user.
   *
   * Activity `ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2` at `POST /public/v1/submit/create_read_write_session`; the result is `activity.result.createReadWriteSessionResultV2`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  createReadWriteSession(
    input: ActivityInput<CreateReadWriteSessionParameters, "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2">,
  ): Promise<ActivityResponseOf<{ createReadWriteSessionResultV2: CreateReadWriteSessionResult }>>;
  /**
   * Create a session for a user through stamping client side (API key, wallet client, or passkey client).
   *
   * Activity `ACTIVITY_TYPE_STAMP_LOGIN` at `POST /public/v1/submit/stamp_login`; the result is `activity.result.stampLoginResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  stampLogin(
    input: ActivityInput<StampLoginParameters, "ACTIVITY_TYPE_STAMP_LOGIN">,
  ): Promise<ActivityResponseOf<{ stampLoginResult: StampLoginResult }>>;
  /**
   * Create an Oauth session for a user.
   *
   * Activity `ACTIVITY_TYPE_OAUTH_LOGIN` at `POST /public/v1/submit/oauth_login`; the result is `activity.result.oauthLoginResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  oauthLogin(
    input: ActivityInput<OauthLoginParameters, "ACTIVITY_TYPE_OAUTH_LOGIN">,
  ): Promise<ActivityResponseOf<{ oauthLoginResult: OauthLoginResult }>>;
  /**
   * Create an OTP session for a user.
   *
   * Activity `ACTIVITY_TYPE_OTP_LOGIN_V2` at `POST /public/v1/submit/otp_login`; the result is `activity.result.otpLoginResult`.
   * Also accepts `type` `ACTIVITY_TYPE_OTP_LOGIN`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  otpLogin(
    input: ActivityInput<OtpLoginParameters, "ACTIVITY_TYPE_OTP_LOGIN_V2">,
  ): Promise<ActivityResponseOf<{ otpLoginResult: OtpLoginResult }>>;
  /**
   * `otpLogin` in the older version `ACTIVITY_TYPE_OTP_LOGIN`, which `type` names; the result is `activity.result.otpLoginResult`.
   */
  otpLogin(
    input: OlderActivityInput<OtpLoginV1Parameters, "ACTIVITY_TYPE_OTP_LOGIN">,
  ): Promise<ActivityResponseOf<{ otpLoginResult: OtpLoginResult }>>;
  /**
   * Create a read only session for a user (valid for 1 hour).
   *
   * Activity `ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION` at `POST /public/v1/submit/create_read_only_session`; the result is `activity.result.createReadOnlySessionResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  createReadOnlySession(
    input: ActivityInput<CreateReadOnlySessionParameters, "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION">,
  ): Promise<ActivityResponseOf<{ createReadOnlySessionResult: CreateReadOnlySessionResult }>>;
  /**
   * Initiate a generic OTP activity.
   *
   * Activity `ACTIVITY_TYPE_INIT_OTP_V3` at `POST /public/v1/submit/init_otp`; the result is `activity.result.initOtpResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_INIT_OTP_V2`, `ACTIVITY_TYPE_INIT_OTP`.
   * Policy: resource `OTP`, action `CREATE`.
   */
  initOtp(
    input: ActivityInput<InitOtpParameters, "ACTIVITY_TYPE_INIT_OTP_V3">,
  ): Promise<ActivityResponseOf<{ initOtpResultV2: InitOtpResult }>>;
  /**
   * `initOtp` in the older version `ACTIVITY_TYPE_INIT_OTP_V2`, which `type` names; the result is `activity.result.initOtpResult`.
   */
  initOtp(
    input: OlderActivityInput<InitOtpParameters, "ACTIVITY_TYPE_INIT_OTP_V2">,
  ): Promise<ActivityResponseOf<{ initOtpResult: InitOtpResult }>>;
  /**
   * `initOtp` in the older version `ACTIVITY_TYPE_INIT_OTP`, which `type` names; the result is `activity.result.initOtpResult`.
   */
  initOtp(
    input: OlderActivityInput<InitOtpV1Parameters, "ACTIVITY_TYPE_INIT_OTP">,
  ): Promise<ActivityResponseOf<{ initOtpResult: InitOtpResult }>>;
  /**
   * Verify a generic OTP.
   *
   * Activity `ACTIVITY_TYPE_VERIFY_OTP_V2` at `POST /public/v1/submit/verify_otp`; the result is `activity.result.verifyOtpResult`.
   * Also accepts `type` `ACTIVITY_TYPE_VERIFY_OTP`.
   * Policy: resource `OTP`, action `VERIFY`.
   */
  verifyOtp(
    input: ActivityInput<VerifyOtpParameters, "ACTIVITY_TYPE_VERIFY_OTP_V2">,
  ): Promise<ActivityResponseOf<{ verifyOtpResult: VerifyOtpResult }>>;
  /**
   * `verifyOtp` in the older version `ACTIVITY_TYPE_VERIFY_OTP`, which `type` names; the result is `activity.result.verifyOtpResult`.
   */
  verifyOtp(
    input: OlderActivityInput<VerifyOtpV1Parameters, "ACTIVITY_TYPE_VERIFY_OTP">,
  ): Promise<ActivityResponseOf<{ verifyOtpResult: VerifyOtpResult }>>;
  /**
   * Initiate an OTP auth activity.
   *
   * Activity `ACTIVITY_TYPE_INIT_OTP_AUTH_V3` at `POST /public/v1/submit/init_otp_auth`; the result is `activity.result.initOtpAuthResultV2`.
   * Also accepts `type` `ACTIVITY_TYPE_INIT_OTP_AUTH_V2`, `ACTIVITY_TYPE_INIT_OTP_AUTH`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  initOtpAuth(
    input: ActivityInput<InitOtpAuthParameters, "ACTIVITY_TYPE_INIT_OTP_AUTH_V3">,
  ): Promise<ActivityResponseOf<{ initOtpAuthResultV2: InitOtpAuthResult }>>;
  /**
   * `initOtpAuth` in the older version `ACTIVITY_TYPE_INIT_OTP_AUTH_V2`, which `type` names; the result is `activity.result.initOtpAuthResultV2`.
   */
  initOtpAuth(
    input: OlderActivityInput<InitOtpAuthV2Parameters, "ACTIVITY_TYPE_INIT_OTP_AUTH_V2">,
  ): Promise<ActivityResponseOf<{ initOtpAuthResultV2: InitOtpAuthResult }>>;
  /**
   * `initOtpAuth` in the older version `ACTIVITY_TYPE_INIT_OTP_AUTH`, which `type` names; the result is `activity.result.initOtpAuthResult`.
   */
  initOtpAuth(
    input: OlderActivityInput<InitOtpAuthV1Parameters, "ACTIVITY_TYPE_INIT_OTP_AUTH">,
  ): Promise<ActivityResponseOf<{ initOtpAuthResult: InitOtpAuthResult }>>;
  /**
   * Authenticate a user with an OTP code sent via email or SMS.
   *
   * Activity `ACTIVITY_TYPE_OTP_AUTH` at `POST /public/v1/submit/otp_auth`; the result is `activity.result.otpAuthResult`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  otpAuth(
    input: ActivityInput<OtpAuthParameters, "ACTIVITY_TYPE_OTP_AUTH">,
  ): Promise<ActivityResponseOf<{ otpAuthResult: OtpAuthResult }>>;
  /**
   * Authenticate a user via email.
   *
   * Activity `ACTIVITY_TYPE_EMAIL_AUTH_V3` at `POST /public/v1/submit/email_auth`; the result is `activity.result.emailAuthResult`.
   * Also accepts `type` `ACTIVITY_TYPE_EMAIL_AUTH_V2`.
   * Policy: resource `AUTH`, action `CREATE`.
   */
  emailAuth(
    input: ActivityInput<EmailAuthParameters, "ACTIVITY_TYPE_EMAIL_AUTH_V3">,
  ): Promise<ActivityResponseOf<{ emailAuthResult: EmailAuthResult }>>;
  /**
   * `emailAuth` in the older version `ACTIVITY_TYPE_EMAIL_AUTH_V2`, which `type` names; the result is `activity.result.emailAuthResult`.
   */
  emailAuth(
    input: OlderActivityInput<EmailAuthV2Parameters, "ACTIVITY_TYPE_EMAIL_AUTH_V2">,
  ): Promise<ActivityResponseOf<{ emailAuthResult: EmailAuthResult }>>;
  /**
   * Initialize a new email recovery.
   *
   * Activity `ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2` at `POST /public/v1/submit/init_user_email_recovery`; the result is `activity.result.initUserEmailRecoveryResult`.
   * Also accepts `type` `ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY`.
   * Policy: resource `RECOVERY`, action `CREATE`.
   */
  initUserEmailRecovery(
    input: ActivityInput<InitUserEmailRecoveryParameters, "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2">,
  ): Promise<ActivityResponseOf<{ initUserEmailRecoveryResult: InitUserEmailRecoveryResult }>>;
  /**
   * `initUserEmailRecovery` in the older version `ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY`, which `type` names; the result is `activity.result.initUserEmailRecoveryResult`.
   */
  initUserEmailRecovery(
    input: OlderActivityInput<InitUserEmailRecoveryV1Parameters, "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY">,
  ): Promise<ActivityResponseOf<{ initUserEmailRecoveryResult: InitUserEmailRecoveryResult }>>;
  /**
   * Complete the process of recovering a user by adding an authenticator.
   *
   * Activity `ACTIVITY_TYPE_RECOVER_USER` at `POST /public/v1/submit/recover_user`; the result is `activity.result.recoverUserResult`.
   * Policy: resource `CREDENTIAL`, action `CREATE`.
   */
  recoverUser(
    input: ActivityInput<RecoverUserParameters, "ACTIVITY_TYPE_RECOVER_USER">,
  ): Promise<ActivityResponseOf<{ recoverUserResult: RecoverUserResult }>>;
  /**
   * List email events for the organization.
   *
   * Query at `POST /public/v1/query/list_email_events`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listEmailEvents(input: ListEmailEventsRequest): Promise<ListEmailEventsResponse>;
  /**
   * Get all email or phone verified suborg IDs associated given a parent org ID.
   *
   * Query at `POST /public/v1/query/list_verified_suborgs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getVerifiedSubOrgIds(input: GetVerifiedSubOrgIdsRequest): Promise<GetVerifiedSubOrgIdsResponse>;
  /**
   * Export a wallet.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_WALLET` at `POST /public/v1/submit/export_wallet`; the result is `activity.result.exportWalletResult`.
   * Policy: resource `WALLET`, action `EXPORT`.
   */
  exportWallet(
    input: ActivityInput<ExportWalletParameters, "ACTIVITY_TYPE_EXPORT_WALLET">,
  ): Promise<ActivityResponseOf<{ exportWalletResult: ExportWalletResult }>>;
  /**
   * Export a wallet account.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT` at `POST /public/v1/submit/export_wallet_account`; the result is `activity.result.exportWalletAccountResult`.
   * Policy: resource `WALLET`, action `EXPORT`.
   */
  exportWalletAccount(
    input: ActivityInput<ExportWalletAccountParameters, "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT">,
  ): Promise<ActivityResponseOf<{ exportWalletAccountResult: ExportWalletAccountResult }>>;
  /**
   * Export a private key.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_PRIVATE_KEY` at `POST /public/v1/submit/export_private_key`; the result is `activity.result.exportPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `EXPORT`.
   */
  exportPrivateKey(
    input: ActivityInput<ExportPrivateKeyParameters, "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY">,
  ): Promise<ActivityResponseOf<{ exportPrivateKeyResult: ExportPrivateKeyResult }>>;
  /**
   * Initialize a new wallet import.
   *
   * Activity `ACTIVITY_TYPE_INIT_IMPORT_WALLET` at `POST /public/v1/submit/init_import_wallet`; the result is `activity.result.initImportWalletResult`.
   * Policy: resource `WALLET`, action `IMPORT`.
   */
  initImportWallet(
    input: ActivityInput<InitImportWalletParameters, "ACTIVITY_TYPE_INIT_IMPORT_WALLET">,
  ): Promise<ActivityResponseOf<{ initImportWalletResult: InitImportWalletResult }>>;
  /**
   * Import a wallet.
   *
   * Activity `ACTIVITY_TYPE_IMPORT_WALLET` at `POST /public/v1/submit/import_wallet`; the result is `activity.result.importWalletResult`.
   * Policy: resource `WALLET`, action `IMPORT`.
   */
  importWallet(
    input: ActivityInput<ImportWalletParameters, "ACTIVITY_TYPE_IMPORT_WALLET">,
  ): Promise<ActivityResponseOf<{ importWalletResult: ImportWalletResult }>>;
  /**
   * Initialize a new private key import.
   *
   * Activity `ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY` at `POST /public/v1/submit/init_import_private_key`; the result is `activity.result.initImportPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `IMPORT`.
   */
  initImportPrivateKey(
    input: ActivityInput<InitImportPrivateKeyParameters, "ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY">,
  ): Promise<ActivityResponseOf<{ initImportPrivateKeyResult: InitImportPrivateKeyResult }>>;
  /**
   * Import a private key.
   *
   * Activity `ACTIVITY_TYPE_IMPORT_PRIVATE_KEY` at `POST /public/v1/submit/import_private_key`; the result is `activity.result.importPrivateKeyResult`.
   * Policy: resource `PRIVATE_KEY`, action `IMPORT`.
   */
  importPrivateKey(
    input: ActivityInput<ImportPrivateKeyParameters, "ACTIVITY_TYPE_IMPORT_PRIVATE_KEY">,
  ): Promise<ActivityResponseOf<{ importPrivateKeyResult: ImportPrivateKeyResult }>>;
  /**
   * Delete wallets for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WALLETS` at `POST /public/v1/submit/delete_wallets`; the result is `activity.result.deleteWalletsResult`.
   * Policy: resource `WALLET`, action `DELETE`.
   */
  deleteWallets(
    input: ActivityInput<DeleteWalletsParameters, "ACTIVITY_TYPE_DELETE_WALLETS">,
  ): Promise<ActivityResponseOf<{ deleteWalletsResult: DeleteWalletsResult }>>;
  /**
   * Delete wallet accounts for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS` at `POST /public/v1/submit/delete_wallet_accounts`; the result is `activity.result.deleteWalletAccountsResult`.
   * Policy: resource `WALLET`, action `DELETE`.
   */
  deleteWalletAccounts(
    input: ActivityInput<DeleteWalletAccountsParameters, "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS">,
  ): Promise<ActivityResponseOf<{ deleteWalletAccountsResult: DeleteWalletAccountsResult }>>;
  /**
   * Delete private keys for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_PRIVATE_KEYS` at `POST /public/v1/submit/delete_private_keys`; the result is `activity.result.deletePrivateKeysResult`.
   * Policy: resource `PRIVATE_KEY`, action `DELETE`.
   */
  deletePrivateKeys(
    input: ActivityInput<DeletePrivateKeysParameters, "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS">,
  ): Promise<ActivityResponseOf<{ deletePrivateKeysResult: DeletePrivateKeysResult }>>;
  /**
   * Delete a sub-organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION` at `POST /public/v1/submit/delete_sub_organization`; the result is `activity.result.deleteSubOrganizationResult`.
   * Policy: resource `ORGANIZATION`, action `DELETE`.
   */
  deleteSubOrganization(
    input: ActivityInput<DeleteSubOrganizationParameters, "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION">,
  ): Promise<ActivityResponseOf<{ deleteSubOrganizationResult: DeleteSubOrganizationResult }>>;
  /**
   * Set an organization feature. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE` at `POST /public/v1/submit/set_organization_feature`; the result is `activity.result.setOrganizationFeatureResult`.
   * Policy: none; only the root quorum can approve it.
   */
  setOrganizationFeature(
    input: ActivityInput<SetOrganizationFeatureParameters, "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE">,
  ): Promise<ActivityResponseOf<{ setOrganizationFeatureResult: SetOrganizationFeatureResult }>>;
  /**
   * Remove an organization feature. This activity must be approved by the current root quorum.
   *
   * Activity `ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE` at `POST /public/v1/submit/remove_organization_feature`; the result is `activity.result.removeOrganizationFeatureResult`.
   * Policy: none; only the root quorum can approve it.
   */
  removeOrganizationFeature(
    input: ActivityInput<RemoveOrganizationFeatureParameters, "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE">,
  ): Promise<ActivityResponseOf<{ removeOrganizationFeatureResult: RemoveOrganizationFeatureResult }>>;
  /**
   * Create a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/create_webhook_endpoint`; the result is `activity.result.createWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `CREATE`.
   */
  createWebhookEndpoint(
    input: ActivityInput<CreateWebhookEndpointParameters, "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT">,
  ): Promise<ActivityResponseOf<{ createWebhookEndpointResult: CreateWebhookEndpointResult }>>;
  /**
   * Update a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/update_webhook_endpoint`; the result is `activity.result.updateWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `UPDATE`.
   */
  updateWebhookEndpoint(
    input: ActivityInput<UpdateWebhookEndpointParameters, "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT">,
  ): Promise<ActivityResponseOf<{ updateWebhookEndpointResult: UpdateWebhookEndpointResult }>>;
  /**
   * Delete a webhook endpoint for an organization.
   *
   * Activity `ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT` at `POST /public/v1/submit/delete_webhook_endpoint`; the result is `activity.result.deleteWebhookEndpointResult`.
   * Policy: resource `WEBHOOK_ENDPOINT`, action `DELETE`.
   */
  deleteWebhookEndpoint(
    input: ActivityInput<DeleteWebhookEndpointParameters, "ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT">,
  ): Promise<ActivityResponseOf<{ deleteWebhookEndpointResult: DeleteWebhookEndpointResult }>>;
  /**
   * List webhook endpoints within an organization.
   *
   * Query at `POST /public/v1/query/list_webhook_endpoints`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listWebhookEndpoints(input: ListWebhookEndpointsRequest): Promise<ListWebhookEndpointsResponse>;
  /**
   * Get the boot proof for a given ephemeral key.
   *
   * Query at `POST /public/v1/query/get_boot_proof`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getBootProof(input: GetBootProofRequest): Promise<GetBootProofResponse>;
  /**
   * Get the latest boot proof for a given enclave app name.
   *
   * Query at `POST /public/v1/query/get_latest_boot_proof`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getLatestBootProof(input: GetLatestBootProofRequest): Promise<GetLatestBootProofResponse>;
  /**
   * List the App Proofs for the given activity.
   *
   * Query at `POST /public/v1/query/list_app_proofs`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  getAppProofs(input: GetAppProofsRequest): Promise<GetAppProofsResponse>;
  /**
   * Initialize secret imports by generating Ingress Encryption Target Keys.
   *
   * Activity `ACTIVITY_TYPE_INIT_IMPORT_SECRETS` at `POST /public/v1/submit/init_import_secrets`; the result is `activity.result.initImportSecretsResult`.
   * Policy: resource `SECRET`, action `IMPORT`.
   */
  initImportSecrets(
    input: ActivityInput<InitImportSecretsParameters, "ACTIVITY_TYPE_INIT_IMPORT_SECRETS">,
  ): Promise<ActivityResponseOf<{ initImportSecretsResult: InitImportSecretsResult }>>;
  /**
   * Import secrets encrypted to target keys returned from InitImportSecrets.
   *
   * Activity `ACTIVITY_TYPE_IMPORT_SECRETS` at `POST /public/v1/submit/import_secrets`; the result is `activity.result.importSecretsResult`.
   * Policy: resource `SECRET`, action `IMPORT`.
   */
  importSecrets(
    input: ActivityInput<ImportSecretsParameters, "ACTIVITY_TYPE_IMPORT_SECRETS">,
  ): Promise<ActivityResponseOf<{ importSecretsResult: ImportSecretsResult }>>;
  /**
   * Export secrets encrypted to client-provided target public keys.
   *
   * Activity `ACTIVITY_TYPE_EXPORT_SECRETS` at `POST /public/v1/submit/export_secrets`; the result is `activity.result.exportSecretsResult`.
   * Policy: resource `SECRET`, action `EXPORT`.
   */
  exportSecrets(
    input: ActivityInput<ExportSecretsParameters, "ACTIVITY_TYPE_EXPORT_SECRETS">,
  ): Promise<ActivityResponseOf<{ exportSecretsResult: ExportSecretsResult }>>;
  /**
   * List secret metadata for an organization.
   *
   * Query at `POST /public/v1/query/list_secrets`.
   * Read access: the caller's organization or one of its sub-organizations.
   */
  listSecrets(input: ListSecretsRequest): Promise<ListSecretsResponse>;
}
