/**
 * IP allow-lists: `set_ip_allowlist`, `remove_ip_allowlist` and the `get_ip_allowlist` query. An organization
 * without a parent keeps one list of its own and one per API key; the HTTP adapter has the engine check them
 * against the client address it sees (`domain/ip-allowlist.ts`). `set` replaces the whole list; `get` of a
 * list never set (or removed) answers one with no rules.
 *
 * The policy language's table maps neither activity: custodian judges them as the organization configuration
 * they are, `CONFIG/UPDATE` and `CONFIG/DELETE` (docs/spec/policy-language.md §2).
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, notFound } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list, MAX_NAME_LENGTH, withoutNul } from "../contract/schema.js";
import { MAX_RULES_PER_FAMILY, normalizeCidr } from "../domain/ip-allowlist.js";
import { type DataReader, INDEX, ipAllowlistRecordId } from "../model/data.js";
import type { IpAllowlistRecord, IpAllowlistRuleRecord, OrganizationRecord } from "../model/records.js";

/** An API key's public key as the allow-list parameters name it (compressed or uncompressed hex). */
const publicKey = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
  v.regex(/^[0-9a-fA-F]+$/, "must be an API key's public key in hex"),
);

const ruleSchema = v.object({
  cidr: v.pipe(v.string(), v.maxLength(64, "must be at most 64 characters")),
  label: v.optional(
    v.pipe(v.string(), v.maxLength(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`), withoutNul),
  ),
});

/** Two families of ten, and room for duplicates the normalization drops. */
const MAX_SUBMITTED_RULES = 100;

/** `ALLOW` or `DENY`: a plain string in the API description (no enum), checked here. */
const evaluationError = v.pipe(
  v.string(),
  v.check((value) => value === "ALLOW" || value === "DENY", "must be ALLOW or DENY"),
  v.transform((value) => value as "ALLOW" | "DENY"),
);

/** Lists belong to organizations without a parent: a sub-organization's requests are never checked. */
function requireTopLevel(organization: OrganizationRecord): void {
  if (organization.parentOrganizationId !== null) {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      "IP allowlists belong to parent organizations; a sub-organization has none",
      { field: "organizationId", reason: "IP_ALLOWLIST_SUB_ORGANIZATION" },
    );
  }
}

/** The key named by `publicKey` must be one of the organization's API keys. */
async function requireApiKey(data: DataReader, organizationId: string, key: string, field: string): Promise<string> {
  const lower = key.toLowerCase();
  if ((await data.lookup("apiKeyByPublicKey", INDEX.apiKeyByPublicKey(organizationId, lower))) === undefined) {
    throw notFound("api key", key, field);
  }
  return lower;
}

/**
 * Normalizes the rules, keeping the first of each CIDR (and its label), within ten per family. A CIDR the list
 * held before keeps its creation time.
 */
function normalizedRules(
  rules: readonly { cidr: string; label?: string | undefined }[],
  previous: readonly IpAllowlistRuleRecord[],
  now: number,
): IpAllowlistRuleRecord[] {
  const createdAt = new Map(previous.map((rule) => [rule.cidr, rule.createdAtMs]));
  const kept = new Map<string, IpAllowlistRuleRecord>();
  const perFamily = { 4: 0, 6: 0 };
  for (const [index, rule] of rules.entries()) {
    const field = `parameters.rules[${index}].cidr`;
    const normalized = normalizeCidr(rule.cidr);
    if ("problem" in normalized) {
      throw new CustodyError("INVALID_ARGUMENT", `${field}: ${JSON.stringify(rule.cidr)} ${normalized.problem}`, {
        field,
        reason: "INVALID_CIDR",
      });
    }
    if (kept.has(normalized.cidr)) continue;
    perFamily[normalized.family] += 1;
    if (perFamily[normalized.family] > MAX_RULES_PER_FAMILY) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        `${field}: an allowlist holds at most ${MAX_RULES_PER_FAMILY} IPv${normalized.family} CIDRs`,
        { field, reason: "IP_ALLOWLIST_LIMIT_EXCEEDED" },
      );
    }
    kept.set(normalized.cidr, {
      cidr: normalized.cidr,
      label: rule.label ?? "",
      createdAtMs: createdAt.get(normalized.cidr) ?? now,
    });
  }
  return [...kept.values()];
}

export const setIpAllowlist = defineActivity({
  method: "setIpAllowlist",
  path: "set_ip_allowlist",
  versions: [
    {
      type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST",
      intent: "setIpAllowlistIntent",
      result: "setIpAllowlistResult",
      parameters: v.object({
        publicKey: v.optional(publicKey),
        enabled: v.optional(v.boolean()),
        rules: v.optional(list(ruleSchema, MAX_SUBMITTED_RULES), []),
        onEvaluationError: v.optional(evaluationError, "DENY"),
      }),
    },
  ],
  policy: { resource: "CONFIG", action: "UPDATE" },
  async handler(context, params) {
    const { data, organization } = context;
    requireTopLevel(organization);
    const key =
      params.publicKey === undefined
        ? null
        : await requireApiKey(data, organization.id, params.publicKey, "parameters.publicKey");
    if (key === null && params.enabled === undefined) {
      throw new CustodyError(
        "INVALID_ARGUMENT",
        "parameters.enabled: the organization-level allowlist needs enabled set to true or false",
        { field: "parameters.enabled", reason: "REQUEST_INVALID" },
      );
    }
    const recordId = ipAllowlistRecordId(organization.id, key);
    const previous = await data.get("ipAllowlists", recordId);
    const record: IpAllowlistRecord = {
      id: recordId,
      organizationId: organization.id,
      publicKey: key,
      enabled: key === null ? (params.enabled ?? false) : null,
      onEvaluationError: params.onEvaluationError,
      rules: normalizedRules(params.rules, previous?.rules ?? [], context.now),
      createdAtMs: previous?.createdAtMs ?? context.now,
      updatedAtMs: context.now,
    };
    await data.put("ipAllowlists", record);
    return {};
  },
});

export const removeIpAllowlist = defineActivity({
  method: "removeIpAllowlist",
  path: "remove_ip_allowlist",
  versions: [
    {
      type: "ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST",
      intent: "removeIpAllowlistIntent",
      result: "removeIpAllowlistResult",
      parameters: v.object({ publicKey: v.optional(publicKey) }),
    },
  ],
  policy: { resource: "CONFIG", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    requireTopLevel(organization);
    const key = params.publicKey === undefined ? null : params.publicKey.toLowerCase();
    // Removing a list that is not there leaves things as they are: `get` answers the same either way.
    await data.delete("ipAllowlists", ipAllowlistRecordId(organization.id, key));
    return {};
  },
});

export const getIpAllowlist = defineQuery({
  method: "getIpAllowlist",
  path: "get_ip_allowlist",
  request: v.object({ organizationId: id, publicKey: v.optional(publicKey) }),
  async handler(context, request) {
    const { organization } = context;
    const key = request.publicKey === undefined ? null : request.publicKey.toLowerCase();
    const stored = await context.data.get("ipAllowlists", ipAllowlistRecordId(organization.id, key));
    return {
      allowlist: {
        organizationId: organization.id,
        rules: (stored?.rules ?? []).map((rule) => ({
          cidr: rule.cidr,
          label: rule.label,
          createdAt: String(rule.createdAtMs),
        })),
        ...(key === null ? {} : { publicKey: key }),
        ...(stored?.enabled == null ? {} : { enabled: stored.enabled }),
        ...(stored === undefined ? {} : { onEvaluationError: stored.onEvaluationError }),
      },
    };
  },
});
