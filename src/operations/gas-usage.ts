/**
 * Gas sponsorship limits: `upsert_gas_usage_config` stores an organization's limits and `get_gas_usage`
 * reads them back with the usage of the current window.
 *
 * The limits belong to the billing organization, the top-level one: `orgWindowLimitUsd` bounds the sponsored
 * sends of it and its sub-organizations together, and `subOrgWindowLimitUsd` those of each sub-organization,
 * over one rolling window of `windowDurationMinutes`. A sub-organization reads the parent's sub-organization
 * limit and cannot set one. What counts against them is kept by the sponsored sends (`domain/gas-usage.ts`):
 * on a host without a sponsor (engine option `gasStation`) nothing is sponsored and the usage stays "0".
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id } from "../contract/schema.js";
import { gasUsage, MAX_WINDOW_MINUTES, storedGasUsageConfig } from "../domain/gas-usage.js";
import type { GasUsageConfigRecord } from "../model/records.js";

/**
 * A USD amount as the API carries it: a plain decimal string, whole dollars and up to 6 decimals, below a
 * billion dollars. 15 significant digits at most, so `Number(windowLimitUsd)` (what clients do with it) is
 * exact. The intent keeps it as sent; the stored config keeps it normalized ({@link normalizeDecimal}).
 */
const usd = v.pipe(
  v.string(),
  v.maxLength(32, "must be at most 32 characters"),
  v.regex(/^[0-9]+(\.[0-9]+)?$/, "must be a non-negative decimal amount of USD, such as 25 or 12.5"),
  v.check(
    (value) => /^[0-9]{1,9}(\.[0-9]{1,6})?$/.test(normalizeDecimal(value)),
    "must be below 1,000,000,000 USD, with at most 6 decimals",
  ),
);

/** The rolling window in whole minutes, 1 to 43200 (30 days), carried as a decimal string. */
const windowMinutes = v.pipe(
  v.string(),
  v.regex(/^[0-9]{1,9}$/, "must be a whole number of minutes, as a decimal string"),
  v.check((value) => Number(value) >= 1, "must be at least 1 minute"),
  v.check((value) => Number(value) <= MAX_WINDOW_MINUTES, `must be at most ${MAX_WINDOW_MINUTES} minutes (30 days)`),
);

/** "010.50" → "10.5": no leading zeros, no trailing fractional zeros, no bare point. */
function normalizeDecimal(value: string): string {
  const [whole = "", fraction = ""] = value.split(".");
  const integer = whole.replace(/^0+(?=[0-9])/, "");
  const decimals = fraction.replace(/0+$/, "");
  return decimals === "" ? integer : `${integer}.${decimals}`;
}

export const upsertGasUsageConfig = defineActivity({
  method: "upsertGasUsageConfig",
  path: "upsert_gas_usage_config",
  // The hosted API's description names the activity type and intent but no route for them.
  unlistedRoute: true,
  versions: [
    {
      type: "ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG",
      intent: "upsertGasUsageConfigIntent",
      result: "upsertGasUsageConfigResult",
      parameters: v.object({
        orgWindowLimitUsd: usd,
        subOrgWindowLimitUsd: usd,
        windowDurationMinutes: windowMinutes,
        enabled: v.optional(v.boolean()),
        solanaConfig: v.optional(v.object({ rentPrefundEnabled: v.optional(v.boolean()) })),
      }),
    },
  ],
  // docs/spec/policy-language.md §2 lists a SPONSORSHIP resource but maps no activity to it; this is the one.
  policy: { resource: "SPONSORSHIP", action: "UPDATE" },
  async handler(context, params) {
    const { organization } = context;
    if (organization.parentOrganizationId !== null) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `gas usage limits are set by the billing organization ${organization.parentOrganizationId}; its subOrgWindowLimitUsd applies to each of its sub-organizations`,
        { field: "organizationId", reason: "NOT_BILLING_ORGANIZATION" },
      );
    }
    const existing = await storedGasUsageConfig(context.data, organization.id);
    const record: GasUsageConfigRecord = {
      id: existing?.id ?? context.newId(),
      organizationId: organization.id,
      orgWindowLimitUsd: normalizeDecimal(params.orgWindowLimitUsd),
      subOrgWindowLimitUsd: normalizeDecimal(params.subOrgWindowLimitUsd),
      windowDurationMinutes: Number(params.windowDurationMinutes),
      // Absent members leave what was stored (the description says so of solanaConfig; enabled alike).
      enabled: params.enabled ?? existing?.enabled ?? false,
      solanaRentPrefundEnabled: params.solanaConfig?.rentPrefundEnabled ?? existing?.solanaRentPrefundEnabled ?? false,
      createdAtMs: existing?.createdAtMs ?? context.now,
      updatedAtMs: context.now,
    };
    await context.data.put("gasUsageConfigs", record);
    return { gasUsageConfigId: record.id };
  },
});

export const getGasUsage = defineQuery({
  method: "getGasUsage",
  path: "get_gas_usage",
  request: v.object({ organizationId: id }),
  handler: (context) => gasUsage(context.data, context.organization, context.now),
});
