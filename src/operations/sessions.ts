/**
 * Read-write sessions (`create_read_write_session`) and the session key every bundle-returning sign-in
 * (`oauth`) hands out: a fresh P-256 API key that expires, registered on the user, whose private key
 * travels only inside a credential bundle sealed to the client's `targetPublicKey` (docs/spec/wire-protocol.md §3).
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import * as v from "valibot";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity } from "../contract/operation.js";
import { id, int64String, name } from "../contract/schema.js";
import { bytesToHex } from "../crypto/bytes.js";
import { encryptCredentialBundle } from "../crypto/hpke/index.js";
import { addApiKey, removeApiKey, requireUser } from "../domain/credentials/index.js";
import type { UserRecord } from "../model/records.js";

/** Session keys live 15 minutes unless the request says otherwise (the intents' documented default). */
export const DEFAULT_SESSION_SECONDS = "900";

/**
 * The longest session one request may ask for: one year. The swagger sets no bound; without one a session
 * of 9999999999999999999 seconds would never expire.
 */
export const MAX_SESSION_SECONDS = 365 * 24 * 60 * 60;

/** A session key's lifetime in seconds: 1 to {@link MAX_SESSION_SECONDS}, refused before any activity exists. */
export const sessionSeconds = v.pipe(
  int64String,
  v.check(
    (seconds) => BigInt(seconds) >= 1n && BigInt(seconds) <= BigInt(MAX_SESSION_SECONDS),
    `must be between 1 and ${MAX_SESSION_SECONDS} seconds (one year)`,
  ),
);

/** A client's P-256 public key in hex (33 bytes compressed or 65 uncompressed, so at most 130 digits). */
export const targetPublicKey = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(200));

/** Seed bytes for noble's FIPS 186-5 A.2 key generation (16 over the group order: negligible bias). */
const KEY_SEED_LENGTH = 48;

/** What one session key is issued with. */
export interface SessionKeyRequest {
  targetPublicKey: string;
  apiKeyName: string;
  /** Decimal seconds, at least 1. */
  expirationSeconds: string;
  /** Delete the user's other keys of `credentialType` first. */
  invalidateExisting: boolean;
  /** `CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256`, `CREDENTIAL_TYPE_OAUTH_KEY_P256`, ... */
  credentialType: string;
}

/** A session key's name when the request gives none: `<prefix> - <ISO 8601 time of the activity>`. */
export function defaultKeyName(prefix: string, now: number): string {
  return `${prefix} - ${new Date(now).toISOString()}`;
}

/**
 * Creates an expiring P-256 API key for `user` and returns its id with a credential bundle holding its
 * private key, sealed to `request.targetPublicKey`. The bundle is built before anything is written, so a
 * bad target key leaves no key behind; the private key is wiped once sealed.
 *
 * @throws CustodyError `INVALID_ARGUMENT` naming `parameters.targetPublicKey` for a key that is not P-256.
 */
export async function issueSessionKey(
  context: ActivityContext,
  user: UserRecord,
  request: SessionKeyRequest,
): Promise<{ apiKeyId: string; credentialBundle: string }> {
  const seed = context.random(KEY_SEED_LENGTH);
  const secret = p256.utils.randomSecretKey(seed);
  seed.fill(0);
  try {
    const credentialBundle = await encryptCredentialBundle({
      plaintext: secret,
      targetPublicKey: request.targetPublicKey,
      randomBytes: context.random,
    });
    if (request.invalidateExisting) {
      for (const key of await context.data.listAll("apiKeys", user.id)) {
        if (key.credentialType === request.credentialType) await removeApiKey(context.data, key);
      }
    }
    const key = await addApiKey(
      context,
      user,
      {
        apiKeyName: request.apiKeyName,
        publicKey: bytesToHex(p256.getPublicKey(secret, true)),
        curveType: "API_KEY_CURVE_P256",
        expirationSeconds: request.expirationSeconds,
      },
      "parameters",
      request.credentialType,
    );
    return { apiKeyId: key.id, credentialBundle };
  } finally {
    secret.fill(0);
  }
}

export const createReadWriteSession = defineActivity({
  method: "createReadWriteSession",
  path: "create_read_write_session",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
      intent: "createReadWriteSessionIntentV2",
      result: "createReadWriteSessionResultV2",
      parameters: v.object({
        targetPublicKey,
        userId: v.optional(id),
        apiKeyName: v.optional(name),
        expirationSeconds: v.optional(sessionSeconds),
        invalidateExisting: v.optional(v.boolean()),
      }),
    },
  ],
  policy: { resource: "AUTH", action: "CREATE" },
  // sdk-browser's session log-in names the parent organization it was configured with; the session is then
  // made in the credential's own sub-organization, which the result names.
  access: "ownViaParent",
  async handler(context, params) {
    const { data, organization } = context;
    // Without `userId`, the session is the requester's own (the acting organization is theirs).
    const user = await requireUser(
      data,
      organization.id,
      params.userId ?? context.principal.userId,
      params.userId === undefined ? "organizationId" : "parameters.userId",
    );
    const session = await issueSessionKey(context, user, {
      targetPublicKey: params.targetPublicKey,
      apiKeyName: params.apiKeyName ?? defaultKeyName("Read Write Session", context.now),
      expirationSeconds: params.expirationSeconds ?? DEFAULT_SESSION_SECONDS,
      invalidateExisting: params.invalidateExisting ?? false,
      credentialType: "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
    });
    return {
      organizationId: organization.id,
      organizationName: organization.name,
      userId: user.id,
      username: user.userName,
      ...session,
    };
  },
});
