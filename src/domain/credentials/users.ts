/**
 * Creating a user with its credentials, and removing a user with everything it holds.
 *
 * @module
 */
import type { DataWriter } from "../../model/data.js";
import type { UserRecord } from "../../model/records.js";
import { addApiKeys, removeApiKey } from "./api-keys.js";
import type { CredentialWriteContext } from "./common.js";
import { addOauthProviders } from "./oauth-providers.js";
import type { UserParams } from "./params.js";
import { addAuthenticator, removeAuthenticator } from "./passkeys.js";

/**
 * Deletes a user with every credential it holds and the records of where they live. Its tag memberships
 * live on the user record and go with it; the tags stay.
 */
export async function removeUser(data: DataWriter, user: UserRecord): Promise<void> {
  for (const key of await data.listAll("apiKeys", user.id)) await removeApiKey(data, key);
  for (const authenticator of await data.listAll("authenticators", user.id)) {
    await removeAuthenticator(data, authenticator);
  }
  for (const provider of await data.listAll("oauthProviders", user.id)) {
    await data.delete("oauthProviders", provider.id);
  }
  for (const policy of await data.listAll("mfaPolicies", user.id)) await data.delete("mfaPolicies", policy.id);
  // Pending import handshakes belong to the user: a target nobody can complete must not linger.
  for (const kind of ["wallet", "privateKey"] as const) await data.delete("importTargets", `${kind}:${user.id}`);
  for (const target of await data.listAll("secretImportTargets", user.id)) {
    await data.delete("secretImportTargets", target.id);
  }
  await data.delete("users", user.id);
}

/** Creates a user with its API keys, passkeys and OAuth providers in `organizationId`. */
export async function createUserWithCredentials(
  context: CredentialWriteContext,
  organizationId: string,
  params: UserParams,
  field: string,
): Promise<UserRecord> {
  const user: UserRecord = {
    id: context.newId(),
    organizationId,
    userName: params.userName,
    userEmail: params.userEmail ?? null,
    userPhoneNumber: params.userPhoneNumber ?? null,
    tagIds: [],
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("users", user);
  await addApiKeys(context, user, params.apiKeys, `${field}.apiKeys`);
  for (const [i, authenticator] of params.authenticators.entries()) {
    await addAuthenticator(context, user, authenticator, `${field}.authenticators[${i}]`);
  }
  await addOauthProviders(context, user, params.oauthProviders, `${field}.oauthProviders`);
  return user;
}
