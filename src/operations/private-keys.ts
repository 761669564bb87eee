/**
 * Standalone private keys and their tags: `create_private_keys`, `create_private_key_tag`,
 * `update_private_key_tag`, `delete_private_key_tags`, and the queries `get_private_key`,
 * `list_private_keys`, `list_private_key_tags`.
 *
 * @module
 */

import * as v from "valibot";
import { CustodyError, notFound } from "../common/errors.js";
import type { ActivityContext } from "../contract/operation.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import { ADDRESS_FORMATS, CURVES } from "../crypto/addresses/index.js";
import {
  assertPrivateKeyFormat,
  encodePrivateKeyPublicKey,
  generatePrivateKey,
  privateKeyAddress,
} from "../crypto/keys/private-keys.js";
import { addressRecordId, type DataReader, type DataWriter, INDEX } from "../model/data.js";
import type { PrivateKeyRecord, TagRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";

/** Private keys one request may create, and per organization (docs/spec/wire-protocol.md §7, resource limits). */
export const MAX_PRIVATE_KEYS_PER_REQUEST = 100;
export const MAX_PRIVATE_KEYS_PER_ORGANIZATION = 1000;

const privateKeyParams = v.object({
  privateKeyName: name,
  curve: v.picklist(CURVES),
  privateKeyTags: list(id, 100),
  addressFormats: list(v.picklist(ADDRESS_FORMATS), ADDRESS_FORMATS.length),
});

export const privateKeyContext = (privateKeyId: string) => `privateKey:${privateKeyId}`;

/** A private key of the organization, or NOT_FOUND naming `field`. */
export async function requirePrivateKey(
  data: DataReader,
  organizationId: string,
  privateKeyId: string,
  field: string,
): Promise<PrivateKeyRecord> {
  return data.requireInOrganization("privateKeys", privateKeyId, organizationId, "private key", field);
}

/** A private-key tag of the organization, or NOT_FOUND naming `field`. */
export async function requireKeyTag(
  data: DataReader,
  organizationId: string,
  tagId: string,
  field: string,
): Promise<TagRecord> {
  const tag = await data.get("tags", tagId);
  if (!tag || tag.organizationId !== organizationId || tag.tagType !== "TAG_TYPE_PRIVATE_KEY") {
    throw notFound("private key tag", tagId, field);
  }
  return tag;
}

/** Refuses a private key name the organization already uses (`ALREADY_EXISTS` naming `field`). */
export async function assertUniqueKeyName(
  data: DataReader,
  organizationId: string,
  privateKeyName: string,
  field: string,
): Promise<void> {
  if (await data.lookup("privateKeyByName", INDEX.privateKeyByName(organizationId, privateKeyName))) {
    throw new CustodyError("ALREADY_EXISTS", `a private key named ${privateKeyName} already exists`, {
      field,
      reason: "PRIVATE_KEY_NAME_EXISTS",
    });
  }
}

/** Stores a private key (sealed) with its address records. */
export async function storePrivateKey(data: DataWriter, record: PrivateKeyRecord, field: string): Promise<void> {
  for (const { address } of record.addresses) {
    const addressId = addressRecordId(record.organizationId, address);
    const owner = await data.get("addresses", addressId);
    // Two formats may print the same string (COMPRESSED for one key): that is the same owner, not a clash.
    if (owner && owner.ownerId !== record.id) {
      throw new CustodyError("ALREADY_EXISTS", `address ${address} already exists in the organization`, {
        field,
        reason: "ADDRESS_EXISTS",
      });
    }
    await data.put("addresses", {
      id: addressId,
      organizationId: record.organizationId,
      kind: "privateKey",
      ownerId: record.id,
    });
  }
  await data.put("privateKeys", record);
}

async function createPrivateKey(
  context: ActivityContext,
  params: v.InferOutput<typeof privateKeyParams>,
  field: string,
) {
  const { data, organization } = context;
  await assertUniqueKeyName(data, organization.id, params.privateKeyName, `${field}.privateKeyName`);
  for (const [i, tagId] of params.privateKeyTags.entries())
    await requireKeyTag(data, organization.id, tagId, `${field}.privateKeyTags[${i}]`);
  for (const [i, format] of params.addressFormats.entries())
    assertPrivateKeyFormat(params.curve, format, `${field}.addressFormats[${i}]`);
  const { secret, publicKey } = generatePrivateKey(params.curve, context.random);
  const privateKeyId = context.newId();
  const addresses = params.addressFormats.map((format) => ({
    format,
    address: privateKeyAddress(params.curve, format, publicKey),
  }));
  const record: PrivateKeyRecord = {
    id: privateKeyId,
    organizationId: organization.id,
    privateKeyName: params.privateKeyName,
    curve: params.curve,
    publicKey: encodePrivateKeyPublicKey(params.curve, publicKey),
    sealedPrivateKey: context.services.secrets.seal(secret, privateKeyContext(privateKeyId)),
    addresses,
    tagIds: [...new Set(params.privateKeyTags)],
    exported: false,
    imported: false,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  secret.fill(0);
  await storePrivateKey(data, record, `${field}.addressFormats`);
  return { privateKeyId, addresses };
}

export const createPrivateKeys = defineActivity({
  method: "createPrivateKeys",
  path: "create_private_keys",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2",
      intent: "createPrivateKeysIntentV2",
      result: "createPrivateKeysResultV2",
      parameters: v.object({
        privateKeys: v.pipe(
          list(privateKeyParams, MAX_PRIVATE_KEYS_PER_REQUEST),
          v.minLength(1, "needs at least one private key"),
        ),
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "CREATE" },
  async handler(context, params) {
    const existing = await context.data.list("privateKeys", context.organization.id, {
      limit: MAX_PRIVATE_KEYS_PER_ORGANIZATION,
    });
    if (existing.length + params.privateKeys.length > MAX_PRIVATE_KEYS_PER_ORGANIZATION) {
      throw new CustodyError(
        "RESOURCE_EXHAUSTED",
        `an organization holds at most ${MAX_PRIVATE_KEYS_PER_ORGANIZATION} private keys`,
        {
          field: "parameters.privateKeys",
          limit: MAX_PRIVATE_KEYS_PER_ORGANIZATION,
        },
      );
    }
    const seen = new Set<string>();
    const privateKeys = [];
    for (const [i, key] of params.privateKeys.entries()) {
      if (seen.has(key.privateKeyName)) {
        throw new CustodyError("ALREADY_EXISTS", `private key name ${key.privateKeyName} appears twice`, {
          field: `parameters.privateKeys[${i}].privateKeyName`,
        });
      }
      seen.add(key.privateKeyName);
      privateKeys.push(await createPrivateKey(context, key, `parameters.privateKeys[${i}]`));
    }
    return { privateKeys };
  },
});

export function renderPrivateKey(key: PrivateKeyRecord) {
  return {
    privateKeyId: key.id,
    publicKey: key.publicKey,
    privateKeyName: key.privateKeyName,
    curve: key.curve,
    addresses: key.addresses.map((a) => ({ format: a.format, address: a.address })),
    privateKeyTags: [...key.tagIds],
    createdAt: timestamp(key.createdAtMs),
    updatedAt: timestamp(key.updatedAtMs),
    exported: key.exported,
    imported: key.imported,
  };
}

export const getPrivateKey = defineQuery({
  method: "getPrivateKey",
  path: "get_private_key",
  request: v.object({ organizationId: id, privateKeyId: id }),
  async handler(context, request) {
    return {
      privateKey: renderPrivateKey(
        await requirePrivateKey(context.data, context.organization.id, request.privateKeyId, "privateKeyId"),
      ),
    };
  },
});

export const getPrivateKeys = defineQuery({
  method: "getPrivateKeys",
  path: "list_private_keys",
  request: v.object({ organizationId: id }),
  async handler(context) {
    return { privateKeys: (await context.data.listAll("privateKeys", context.organization.id)).map(renderPrivateKey) };
  },
});
