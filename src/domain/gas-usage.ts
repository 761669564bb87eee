/**
 * Gas sponsorship limits and what counts against them, shared by `get_gas_usage`, `upsert_gas_usage_config`
 * and the sponsored sends.
 *
 * The limits belong to the billing organization, the top-level one: `orgWindowLimitUsd` bounds what the host's
 * sponsor pays for the billing organization and all its sub-organizations together, `subOrgWindowLimitUsd` what
 * it pays for each sub-organization, over one rolling window of `windowDurationMinutes`. Each sponsored send
 * records the most it can cost the sponsor (its gas limit at its maximum fee, in USD at the gas station's
 * price); a send that would take a window past a limit is refused before anything is broadcast.
 *
 * @module
 */
import { CustodyError } from "../common/errors.js";
import { type DataReader, type DataWriter, INDEX } from "../model/data.js";
import type { GasUsageConfigRecord, OrganizationRecord } from "../model/records.js";

/** The longest rolling window the hosted service accepts: 30 days (its API description says so). */
export const MAX_WINDOW_MINUTES = 43_200;

/**
 * The limits of an organization whose billing organization configured none: a 30-day window (the hosted
 * service's monthly limits run over it) and a limit of 0 USD, so nothing is sponsored until limits are set
 * (the hosted service, too, asks for limits before it sponsors).
 */
export const DEFAULT_GAS_USAGE = { windowDurationMinutes: MAX_WINDOW_MINUTES, windowLimitUsd: "0" } as const;

const MICRO = 1_000_000n;

/** The billing organization's config, if it stored one. */
export async function storedGasUsageConfig(
  data: DataReader,
  billingOrganizationId: string,
): Promise<GasUsageConfigRecord | undefined> {
  const configId = await data.lookup(
    "gasUsageConfigByOrganization",
    INDEX.gasUsageConfigByOrganization(billingOrganizationId),
  );
  return configId === undefined ? undefined : data.get("gasUsageConfigs", configId);
}

/** The top-level organization an organization's sponsored sends are billed to. */
export function billingOrganizationId(organization: OrganizationRecord): string {
  return organization.parentOrganizationId ?? organization.id;
}

/** A normalized decimal USD string ("10.5") in millionths. */
function toMicro(usd: string): bigint {
  const [whole = "0", fraction = ""] = usd.split(".");
  return BigInt(whole) * MICRO + BigInt(fraction.padEnd(6, "0").slice(0, 6));
}

/** Millionths of a USD as the API writes amounts: a plain decimal, no trailing zeros ("0.0042", "12"). */
export function formatMicroUsd(micro: bigint): string {
  const whole = micro / MICRO;
  const fraction = (micro % MICRO).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/** What `get_gas_usage` answers for `organization` at `now`. */
export async function gasUsage(
  data: DataReader,
  organization: OrganizationRecord,
  now: number,
): Promise<{ windowDurationMinutes: number; windowLimitUsd: string; usageUsd: string }> {
  const config = await storedGasUsageConfig(data, billingOrganizationId(organization));
  const windowDurationMinutes = config?.windowDurationMinutes ?? DEFAULT_GAS_USAGE.windowDurationMinutes;
  const topLevel = organization.parentOrganizationId === null;
  const limit = config
    ? topLevel
      ? config.orgWindowLimitUsd
      : config.subOrgWindowLimitUsd
    : DEFAULT_GAS_USAGE.windowLimitUsd;
  const usage = await windowUsage(data, organization, now, windowDurationMinutes);
  return { windowDurationMinutes, windowLimitUsd: limit, usageUsd: formatMicroUsd(topLevel ? usage.total : usage.own) };
}

/** The window's spends: the billing organization's total and `organization`'s own. */
async function windowUsage(
  data: DataReader,
  organization: OrganizationRecord,
  now: number,
  windowDurationMinutes: number,
): Promise<{ total: bigint; own: bigint }> {
  const since = now - windowDurationMinutes * 60_000;
  let total = 0n;
  let own = 0n;
  for (const spend of await data.listAll("gasSpends", billingOrganizationId(organization))) {
    if (spend.createdAtMs <= since) continue;
    total += BigInt(spend.microUsd);
    if (spend.organizationId === organization.id) own += BigInt(spend.microUsd);
  }
  return { total, own };
}

/**
 * Refuses a sponsored send costing `microUsd` that would take the window past the billing organization's
 * limit, or past `organization`'s own limit when it is a sub-organization (`FAILED_PRECONDITION`,
 * `GAS_USAGE_LIMIT_EXCEEDED`).
 */
export async function admitSponsoredSpend(
  data: DataReader,
  organization: OrganizationRecord,
  now: number,
  microUsd: bigint,
): Promise<void> {
  const config = await storedGasUsageConfig(data, billingOrganizationId(organization));
  const windowDurationMinutes = config?.windowDurationMinutes ?? DEFAULT_GAS_USAGE.windowDurationMinutes;
  const usage = await windowUsage(data, organization, now, windowDurationMinutes);
  const limits: { limit: string; used: bigint; whose: string }[] = [
    {
      limit: config?.orgWindowLimitUsd ?? DEFAULT_GAS_USAGE.windowLimitUsd,
      used: usage.total,
      whose: "the billing organization's",
    },
  ];
  if (organization.parentOrganizationId !== null) {
    limits.push({
      limit: config?.subOrgWindowLimitUsd ?? DEFAULT_GAS_USAGE.windowLimitUsd,
      used: usage.own,
      whose: "the sub-organization's",
    });
  }
  for (const { limit, used, whose } of limits) {
    if (used + microUsd > toMicro(limit)) {
      throw new CustodyError(
        "FAILED_PRECONDITION",
        `sponsoring this send (up to ${formatMicroUsd(microUsd)} USD) would exceed ${whose} gas usage limit of ${limit} USD per ${windowDurationMinutes} minutes (${formatMicroUsd(used)} USD used)${config ? "" : "; set limits with upsert_gas_usage_config"}`,
        { field: "parameters.sponsor", reason: "GAS_USAGE_LIMIT_EXCEEDED" },
      );
    }
  }
}

/** Records a sponsored send's cost, and forgets spends older than the longest window. */
export async function recordSponsoredSpend(
  data: DataWriter,
  organization: OrganizationRecord,
  sendTransactionStatusId: string,
  microUsd: bigint,
  now: number,
): Promise<void> {
  const billing = billingOrganizationId(organization);
  for (const spend of await data.listAll("gasSpends", billing)) {
    if (spend.createdAtMs <= now - MAX_WINDOW_MINUTES * 60_000) await data.delete("gasSpends", spend.id);
  }
  await data.put("gasSpends", {
    id: sendTransactionStatusId,
    organizationId: organization.id,
    billingOrganizationId: billing,
    microUsd: microUsd.toString(),
    createdAtMs: now,
  });
}
