/**
 * Users and the credentials registered with them, shared by every operation that creates users
 * (`create_sub_organization` root users, the host bootstrap, `create_users`) or adds credentials. One
 * module per credential kind lives in `credentials/`; this is their single entry point.
 *
 * @module
 */
export * from "./credentials/api-keys.js";
export * from "./credentials/common.js";
export * from "./credentials/oauth-providers.js";
export * from "./credentials/params.js";
export * from "./credentials/passkeys.js";
export * from "./credentials/users.js";
