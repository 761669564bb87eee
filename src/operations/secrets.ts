/**
 * Secrets: `init_import_secrets`, `import_secrets`, `export_secrets` and `list_secrets` (docs:
 * features/secrets.mdx). Arbitrary bytes (passwords, API keys, card details) travel only inside the same
 * enclave bundles as wallet import and export, and rest sealed like every other secret in the store.
 *
 * - init hands out `numSecrets` signed ingress targets (fresh P-256 keys, one per secret, single-use);
 *   `@turnkey/crypto`'s `encryptSecretToBundle` seals a secret to one of them. A later init by the same user
 *   replaces that user's pending targets, so what a user can leave waiting is bounded.
 * - import opens each payload with the target it names, seals the plaintext for `secret:<id>` and consumes
 *   the target. Names are unique in the organization; static properties are bound for good.
 * - export seals each secret to the request's `targetPublicKey` in an export bundle, which
 *   `decryptSecretBundle` opens. Policies judge every secret on its own (`secret.static_properties`), and
 *   the batch goes ahead only if each is allowed: no partial export.
 * - list answers metadata only, newest first.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, isCustodyError, notFound } from "../common/errors.js";
import type { ActivityContext, PolicyTargetContext, SeveralPolicyTargets } from "../contract/operation.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, int32, list, name, pagination, withoutNul } from "../contract/schema.js";
import { bytesToHex } from "../crypto/bytes.js";
import { decryptImportBundle } from "../crypto/hpke/index.js";
import { p256PublicKeyOf } from "../crypto/hpke/p256-keys.js";
import { INDEX } from "../model/data.js";
import type { SecretRecord } from "../model/records.js";
import { targetPublicKey } from "./sessions.js";

const ENCRYPTION_SUITES = ["TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1"] as const;

/** The most secrets one request imports or exports, and the most ingress targets one init hands out. */
export const MAX_SECRETS_PER_REQUEST = 100;
/** The most secrets an organization holds. */
export const MAX_SECRETS_PER_ORGANIZATION = 1000;
const MAX_STATIC_PROPERTIES = 32;
/** A payload is JSON of two hex members; this admits a secret of about 32 KiB. */
const MAX_SECRET_PAYLOAD_LENGTH = 70_000;

const encryptionSuite = v.picklist(ENCRYPTION_SUITES);
const propertyText = v.pipe(v.string(), v.maxLength(256, "must be at most 256 characters"), withoutNul);
const staticProperties = list(
  v.object({ key: v.pipe(propertyText, v.minLength(1)), value: propertyText }),
  MAX_STATIC_PROPERTIES,
);
const secretPayload = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(MAX_SECRET_PAYLOAD_LENGTH, `must be at most ${MAX_SECRET_PAYLOAD_LENGTH} characters`),
);
const ingressTargetKey = v.pipe(
  v.string(),
  v.regex(/^(0x)?04[0-9a-fA-F]{128}$/, "must be a 65-byte uncompressed P-256 public key in hex"),
  v.transform((key) => key.replace(/^0x/, "").toLowerCase()),
);

const secretContext = (secretId: string) => `secret:${secretId}`;
const targetContext = (targetId: string) => `secretImportTarget:${targetId}`;

/** The `secret` policy keyword of a stored secret. */
function secretPolicyData(secret: SecretRecord) {
  return { secret: { static_properties: Object.fromEntries(secret.staticProperties.map((p) => [p.key, p.value])) } };
}

async function requireSecret(
  context: Pick<PolicyTargetContext, "data" | "organization">,
  secretId: string,
  field: string,
): Promise<SecretRecord> {
  return context.data.requireInOrganization("secrets", secretId, context.organization.id, "secret", field);
}

/** Deletes every pending ingress target of `userId`. */
async function removeSecretImportTargets(data: ActivityContext["data"], userId: string): Promise<void> {
  for (const target of await data.listAll("secretImportTargets", userId)) {
    await data.delete("secretImportTargets", target.id);
  }
}

export const initImportSecrets = defineActivity({
  method: "initImportSecrets",
  path: "init_import_secrets",
  versions: [
    {
      type: "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
      intent: "initImportSecretsIntent",
      result: "initImportSecretsResult",
      parameters: v.object({
        encryptionSuite,
        numSecrets: v.pipe(
          int32,
          v.minValue(1, "must be at least 1"),
          v.maxValue(MAX_SECRETS_PER_REQUEST, `must be at most ${MAX_SECRETS_PER_REQUEST}`),
        ),
      }),
    },
  ],
  policy: { resource: "SECRET", action: "IMPORT" },
  async handler(context, params) {
    const { data, organization, principal, services } = context;
    await removeSecretImportTargets(data, principal.userId);
    const enclaveTargetMessages: string[] = [];
    for (let i = 0; i < params.numSecrets; i++) {
      const target = services.enclaveSigner.importTarget({
        organizationId: organization.id,
        userId: principal.userId,
        randomBytes: context.random,
      });
      try {
        const targetId = bytesToHex(p256PublicKeyOf(target.targetPrivateKey));
        await data.put("secretImportTargets", {
          id: targetId,
          organizationId: organization.id,
          userId: principal.userId,
          sealedPrivateKey: services.secrets.seal(target.targetPrivateKey, targetContext(targetId)),
          createdAtMs: context.now,
        });
      } finally {
        target.targetPrivateKey.fill(0);
      }
      enclaveTargetMessages.push(target.importBundle);
    }
    return { enclaveTargetMessages };
  },
});

/** Opens `payload` with the submitter's pending target `targetId` and consumes the target. */
async function openSecret(context: ActivityContext, targetId: string, payload: string, field: string) {
  const target = await context.data.get("secretImportTargets", targetId);
  if (!target || target.organizationId !== context.organization.id || target.userId !== context.principal.userId) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      "there is no pending ingress target with this key for you: call init_import_secrets first and encrypt to one of its targets",
      { field: `${field}.targetPublicKey`, reason: "IMPORT_TARGET_NOT_FOUND" },
    );
  }
  const targetPrivateKey = context.services.secrets.unseal(target.sealedPrivateKey, targetContext(targetId));
  try {
    const plaintext = await decryptImportBundle({ bundle: payload, targetPrivateKey });
    await context.data.delete("secretImportTargets", targetId);
    return plaintext;
  } catch (error) {
    // The bundle reader names the wallet import's field; this request calls it secretPayload.
    if (isCustodyError(error) && error.field?.startsWith("parameters.encryptedBundle")) {
      throw new CustodyError(
        error.code,
        error.message.replace("parameters.encryptedBundle", `${field}.secretPayload`),
        {
          ...error.details,
          field: `${field}.secretPayload`,
        },
      );
    }
    throw error;
  } finally {
    targetPrivateKey.fill(0);
  }
}

export const importSecrets = defineActivity({
  method: "importSecrets",
  path: "import_secrets",
  versions: [
    {
      type: "ACTIVITY_TYPE_IMPORT_SECRETS",
      intent: "importSecretsIntent",
      result: "importSecretsResult",
      parameters: v.object({
        secrets: v.pipe(
          list(
            v.object({
              name: v.optional(name),
              secretPayload,
              targetPublicKey: ingressTargetKey,
              encryptionSuite,
              staticProperties: v.optional(staticProperties),
            }),
            MAX_SECRETS_PER_REQUEST,
          ),
          v.minLength(1, "must name at least one secret"),
        ),
      }),
    },
  ],
  policy: { resource: "SECRET", action: "IMPORT" },
  async handler(context, params) {
    const { data, organization, services } = context;
    const held = await data.list("secrets", organization.id, { limit: MAX_SECRETS_PER_ORGANIZATION });
    if (held.length + params.secrets.length > MAX_SECRETS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_SECRETS_PER_ORGANIZATION} secrets`,
        {
          field: "parameters.secrets",
          limit: MAX_SECRETS_PER_ORGANIZATION,
        },
      );
    }
    const names = new Set<string>();
    const targets = new Set<string>();
    for (const [i, secret] of params.secrets.entries()) {
      const field = `parameters.secrets[${i}]`;
      if (targets.has(secret.targetPublicKey)) {
        throw new CustodyError("INVALID_ARGUMENT", "each ingress target takes one secret; this one is named twice", {
          field: `${field}.targetPublicKey`,
        });
      }
      targets.add(secret.targetPublicKey);
      if (secret.name !== undefined) {
        if (
          names.has(secret.name) ||
          (await data.lookup("secretByName", INDEX.secretByName(organization.id, secret.name)))
        ) {
          throw new CustodyError("ALREADY_EXISTS", `a secret named ${JSON.stringify(secret.name)} already exists`, {
            field: `${field}.name`,
            reason: "SECRET_NAME_EXISTS",
          });
        }
        names.add(secret.name);
      }
      const keys = new Set<string>();
      for (const [j, property] of (secret.staticProperties ?? []).entries()) {
        if (keys.has(property.key)) {
          throw new CustodyError("INVALID_ARGUMENT", `static property ${JSON.stringify(property.key)} is given twice`, {
            field: `${field}.staticProperties[${j}].key`,
          });
        }
        keys.add(property.key);
      }
    }
    const secretIds: string[] = [];
    for (const [i, secret] of params.secrets.entries()) {
      const plaintext = await openSecret(
        context,
        secret.targetPublicKey,
        secret.secretPayload,
        `parameters.secrets[${i}]`,
      );
      const secretId = context.newId();
      let sealedSecret: string;
      try {
        sealedSecret = services.secrets.seal(plaintext, secretContext(secretId));
      } finally {
        plaintext.fill(0);
      }
      await data.put("secrets", {
        id: secretId,
        organizationId: organization.id,
        name: secret.name ?? null,
        staticProperties: (secret.staticProperties ?? []).map((p) => ({ key: p.key, value: p.value })),
        sealedSecret,
        createdAtMs: context.now,
      });
      secretIds.push(secretId);
    }
    return { secretIds };
  },
});

export const exportSecrets = defineActivity({
  method: "exportSecrets",
  path: "export_secrets",
  versions: [
    {
      type: "ACTIVITY_TYPE_EXPORT_SECRETS",
      intent: "exportSecretsIntent",
      result: "exportSecretsResult",
      parameters: v.object({
        secrets: v.pipe(
          list(v.object({ secretId: id, targetPublicKey, encryptionSuite }), MAX_SECRETS_PER_REQUEST),
          v.minLength(1, "must name at least one secret"),
        ),
      }),
    },
  ],
  policy: { resource: "SECRET", action: "EXPORT" },
  async policyTarget(context, params): Promise<SeveralPolicyTargets> {
    const targets = [];
    for (const [i, item] of params.secrets.entries()) {
      targets.push(secretPolicyData(await requireSecret(context, item.secretId, `parameters.secrets[${i}].secretId`)));
    }
    return targets as unknown as SeveralPolicyTargets;
  },
  async handler(context, params) {
    const { organization, services } = context;
    const secrets = [];
    for (const [i, item] of params.secrets.entries()) {
      secrets.push(await requireSecret(context, item.secretId, `parameters.secrets[${i}].secretId`));
    }
    const secretPayloads: string[] = [];
    for (const [i, secret] of secrets.entries()) {
      const plaintext = services.secrets.unseal(secret.sealedSecret, secretContext(secret.id));
      try {
        secretPayloads.push(
          await services.enclaveSigner.exportBundle({
            plaintext,
            targetPublicKey: params.secrets[i]!.targetPublicKey,
            organizationId: organization.id,
            randomBytes: context.random,
          }),
        );
      } finally {
        plaintext.fill(0);
      }
    }
    return { secretPayloads };
  },
});

export const listSecrets = defineQuery({
  method: "listSecrets",
  path: "list_secrets",
  request: v.object({ organizationId: id, paginationOptions: v.optional(pagination) }),
  async handler(context, request) {
    const all = await context.data.list("secrets", context.organization.id, { limit: MAX_SECRETS_PER_ORGANIZATION });
    // Newest first, as the description orders them; ties (one import's secrets) by id, newest id first.
    const ordered = [...all].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const { after, before, limit = DEFAULT_PAGE_SIZE } = request.paginationOptions ?? {};
    let start = 0;
    let end = ordered.length;
    if (after !== undefined) {
      const at = ordered.findIndex((s) => s.id === after);
      if (at < 0) throw notFound("secret", after, "paginationOptions.after");
      start = at + 1;
    }
    if (before !== undefined) {
      const at = ordered.findIndex((s) => s.id === before);
      if (at < 0) throw notFound("secret", before, "paginationOptions.before");
      end = at;
    }
    const page =
      before !== undefined && after === undefined
        ? ordered.slice(Math.max(start, end - limit), end)
        : ordered.slice(start, Math.min(end, start + limit));
    return {
      secrets: page.map((secret) => ({
        secretId: secret.id,
        ...(secret.name === null ? {} : { name: secret.name }),
        staticProperties: secret.staticProperties.map((p) => ({ key: p.key, value: p.value })),
        createdAtUnixMs: String(secret.createdAtMs),
      })),
    };
  },
});
