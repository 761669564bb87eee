/**
 * Registering and removing API keys, within the per-user limits.
 *
 * @module
 */
import { isApiKeyExpired } from "../../auth/credential-state.js";
import { CustodyError } from "../../common/errors.js";
import { validateApiPublicKey } from "../../crypto/stamp/index.js";
import { type DataWriter, INDEX, ipAllowlistRecordId } from "../../model/data.js";
import type { ApiKeyCurve, ApiKeyRecord, UserRecord } from "../../model/records.js";
import { type CredentialWriteContext, credentialLocationId } from "./common.js";
import { type ApiKeyParams, LIMITS } from "./params.js";

const CREDENTIAL_TYPE: Record<ApiKeyCurve, string> = {
  API_KEY_CURVE_P256: "CREDENTIAL_TYPE_API_KEY_P256",
  API_KEY_CURVE_SECP256K1: "CREDENTIAL_TYPE_API_KEY_SECP256K1",
  API_KEY_CURVE_ED25519: "CREDENTIAL_TYPE_API_KEY_ED25519",
};

/**
 * Keeps a user within 10 long-lived and 10 expiring API keys before one more is added. A long-lived key over
 * the limit is refused; an expiring one makes room by deleting an expired key, else the oldest expiring one
 * (docs/spec/wire-protocol.md §7, resource limits).
 */
async function makeRoomForApiKey(
  context: CredentialWriteContext,
  user: UserRecord,
  expiring: boolean,
  field: string,
): Promise<void> {
  const keys = await context.data.listAll("apiKeys", user.id);
  const sameKind = keys.filter((key) => (key.expirationSeconds !== null) === expiring);
  const limit = expiring ? LIMITS.expiringApiKeysPerUser : LIMITS.longLivedApiKeysPerUser;
  if (sameKind.length < limit) return;
  if (!expiring) {
    throw new CustodyError("RESOURCE_EXHAUSTED", `a user holds at most ${limit} long-lived API keys`, {
      field,
      reason: "API_KEY_LIMIT_EXCEEDED",
      limit,
    });
  }
  // Listed in creation order, so the first expired key is the oldest expired one.
  const evicted = sameKind.find((key) => isApiKeyExpired(key, context.now)) ?? sameKind[0];
  if (evicted !== undefined) await removeApiKey(context.data, evicted);
}

/**
 * Registers several API keys for a user. A request that alone holds more keys of one kind than the limit
 * is refused, rather than evicting keys it has just created.
 */
export async function addApiKeys(
  context: CredentialWriteContext,
  user: UserRecord,
  keys: readonly ApiKeyParams[],
  field: string,
): Promise<ApiKeyRecord[]> {
  const expiring = keys.filter((key) => key.expirationSeconds !== undefined).length;
  const longLived = keys.length - expiring;
  if (expiring > LIMITS.expiringApiKeysPerUser || longLived > LIMITS.longLivedApiKeysPerUser) {
    throw new CustodyError(
      "RESOURCE_EXHAUSTED",
      `a user holds at most ${LIMITS.longLivedApiKeysPerUser} long-lived and ${LIMITS.expiringApiKeysPerUser} expiring API keys`,
      { field, reason: "API_KEY_LIMIT_EXCEEDED" },
    );
  }
  const added: ApiKeyRecord[] = [];
  for (const [i, key] of keys.entries()) added.push(await addApiKey(context, user, key, `${field}[${i}]`));
  return added;
}

/**
 * Deletes an API key, the record of where it lives and its IP allow-list (a key registered again later starts
 * without one).
 */
export async function removeApiKey(data: DataWriter, key: ApiKeyRecord): Promise<void> {
  await data.delete("apiKeys", key.id);
  await data.delete("ipAllowlists", ipAllowlistRecordId(key.organizationId, key.publicKey));
  await data.delete("credentialLocations", credentialLocationId("apiKey", key.publicKey, key.organizationId));
}

/**
 * Registers an API key for a user, refusing a key that is off its curve or already in the organization.
 * Over the per-user limit, a long-lived key is refused and an expiring one replaces an older one.
 */
export async function addApiKey(
  context: CredentialWriteContext,
  user: UserRecord,
  params: ApiKeyParams,
  field: string,
  credentialType: string = CREDENTIAL_TYPE[params.curveType],
  sessionProfileId?: string,
): Promise<ApiKeyRecord> {
  validateApiPublicKey(params.publicKey, params.curveType, `${field}.publicKey`);
  const publicKey = params.publicKey.toLowerCase();
  const holder = await context.data.lookup(
    "apiKeyByPublicKey",
    INDEX.apiKeyByPublicKey(user.organizationId, publicKey),
  );
  if (holder !== undefined) {
    throw new CustodyError("ALREADY_EXISTS", "this public key is already registered in the organization", {
      field: `${field}.publicKey`,
      reason: "API_KEY_ALREADY_EXISTS",
    });
  }
  await makeRoomForApiKey(context, user, params.expirationSeconds !== undefined, field);
  const record: ApiKeyRecord = {
    id: context.newId(),
    organizationId: user.organizationId,
    userId: user.id,
    apiKeyName: params.apiKeyName,
    publicKey,
    curveType: params.curveType,
    credentialType,
    expirationSeconds: params.expirationSeconds ?? null,
    ...(sessionProfileId === undefined ? {} : { sessionProfileId }),
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("apiKeys", record);
  await context.data.put("credentialLocations", {
    id: credentialLocationId("apiKey", publicKey, user.organizationId),
    organizationId: user.organizationId,
    kind: "apiKey",
    credential: publicKey,
    credentialRecordId: record.id,
  });
  return record;
}
