/**
 * Users and the credentials registered with them, shared by every operation that creates users
 * (`create_sub_organization` root users, the host bootstrap, `create_users`) or adds credentials. One
 * module per credential kind lives in `credentials/`; this is their single entry point.
 *
 * @module
 */
export * from "./api-keys.js";
export * from "./common.js";
export * from "./oauth-providers.js";
export * from "./params.js";
export * from "./passkeys.js";
export * from "./users.js";
