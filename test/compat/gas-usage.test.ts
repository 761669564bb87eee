/**
 * Gas sponsorship limits through the HTTP adapter: `@turnkey/sdk-server`'s and `@turnkey/http`'s
 * `getGasUsage` read the 0 USD default, then what `upsert_gas_usage_config` stored (submitted with the
 * official API-key stamper: the clients have no method for it, the hosted description no route), with a
 * usage of "0" since this host has no sponsor. A sub-organization reads the parent's sub-organization
 * limit and cannot set one; bad values are refused naming the field and store nothing; the activity is
 * policy-governed (SPONSORSHIP / UPDATE); the config outlives a FileStore and a PostgresStore reopen.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodyEngine } from "../../src/index.js";
import { INDEX } from "../../src/model/data.js";
import { FileStore } from "../../src/storage/file/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import { addPolicy, type Member, organizationWithMembers, refusal } from "../support/consensus.js";
import { type ApiKeyPair, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { testDatabase } from "../support/postgres.js";
import { post, type RunningServer, serve } from "../support/server.js";

const UPSERT = "ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG" as const;
const DEFAULT = { windowDurationMinutes: 43200, windowLimitUsd: "0", usageUsd: "0" };

let server: RunningServer;
let fixture: Awaited<ReturnType<typeof organizationWithMembers<"alice">>>;
let alice: Member;
let subOrganizationId: string;
const subKey = p256KeyPair();

function sdk(key: ApiKeyPair, organizationId = fixture.organizationId) {
  return new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

function httpClient(key: ApiKeyPair) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

/** POSTs an upsert_gas_usage_config body stamped by the official API-key stamper; returns the response. */
async function upsertOverHttp(key: ApiKeyPair, organizationId: string, parameters: Record<string, unknown>) {
  const body = JSON.stringify({ type: UPSERT, timestampMs: String(Date.now()), organizationId, parameters });
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const stamp = await stamper.stamp(body);
  return post(`${server.baseUrl}/public/v1/submit/upsert_gas_usage_config`, body, {
    [stamp.stampHeaderName]: stamp.stampHeaderValue,
  });
}

/** What the Tempo example computes from `getGasUsage`: the limit, the usage and what remains. */
async function remaining(organizationId = fixture.organizationId, key = fixture.rootKey) {
  const { usageUsd, windowLimitUsd, windowDurationMinutes } = await sdk(key, organizationId).getGasUsage({});
  return {
    windowDurationMinutes,
    windowLimitUsd,
    usageUsd,
    remainingUsd: (Number(windowLimitUsd) - Number(usageUsd)).toFixed(2),
  };
}

beforeAll(async () => {
  fixture = await organizationWithMembers(["alice"]);
  alice = fixture.members.alice;
  server = await serve(fixture.engine);
  const { activity } = await fixture.root.createSubOrganization({
    organizationId: fixture.organizationId,
    parameters: subOrganizationParameters("Sub", subKey),
  });
  subOrganizationId = activity.result!.createSubOrganizationResultV8.subOrganizationId;
});

afterAll(async () => {
  expect(server?.errors).toEqual([]);
  await server?.close();
  await fixture?.engine.close();
});

describe("get_gas_usage and upsert_gas_usage_config over HTTP", () => {
  it("answers the default before anything is configured: a 30-day window, a 0 USD limit, no usage", async () => {
    expect(await sdk(fixture.rootKey).getGasUsage({})).toEqual(DEFAULT);
    expect(await httpClient(alice.key).getGasUsage({ organizationId: fixture.organizationId })).toEqual(DEFAULT);
    expect(await sdk(subKey, subOrganizationId).getGasUsage({})).toEqual(DEFAULT);
  });

  it("stores the limits; get_gas_usage reports them with no usage, so all of the limit remains", async () => {
    const response = await upsertOverHttp(fixture.rootKey, fixture.organizationId, {
      orgWindowLimitUsd: "25.50",
      subOrgWindowLimitUsd: "0005",
      windowDurationMinutes: "1440",
      enabled: true,
    });
    expect(response.status).toBe(200);
    const activity = (response.json as { activity: Record<string, unknown> }).activity as {
      id: string;
      status: string;
      type: string;
      result: { upsertGasUsageConfigResult: { gasUsageConfigId: string } };
    };
    expect(activity).toMatchObject({ status: "ACTIVITY_STATUS_COMPLETED", type: UPSERT });
    const { gasUsageConfigId } = activity.result.upsertGasUsageConfigResult;
    expect(gasUsageConfigId).toEqual(expect.any(String));

    expect(await remaining()).toEqual({
      windowDurationMinutes: 1440,
      windowLimitUsd: "25.5",
      usageUsd: "0",
      remainingUsd: "25.50",
    });
    // The sub-organization reads the parent's limit for sub-organizations, over the same window.
    expect(await remaining(subOrganizationId, subKey)).toEqual({
      windowDurationMinutes: 1440,
      windowLimitUsd: "5",
      usageUsd: "0",
      remainingUsd: "5.00",
    });
    // The parent's credentials read it too.
    expect(await httpClient(fixture.rootKey).getGasUsage({ organizationId: subOrganizationId })).toMatchObject({
      windowLimitUsd: "5",
    });

    // get_activity shows it as the official client types it.
    const recorded = await httpClient(fixture.rootKey).getActivity({
      organizationId: fixture.organizationId,
      activityId: activity.id,
    });
    expect(recorded.activity.intent.upsertGasUsageConfigIntent).toEqual({
      orgWindowLimitUsd: "25.50",
      subOrgWindowLimitUsd: "0005",
      windowDurationMinutes: "1440",
      enabled: true,
    });

    // A second upsert replaces the limits and keeps the config's id.
    const again = await fixture.root.upsertGasUsageConfig({
      organizationId: fixture.organizationId,
      parameters: { orgWindowLimitUsd: "100", subOrgWindowLimitUsd: "0.75", windowDurationMinutes: "43200" },
    });
    expect(again.activity.result!.upsertGasUsageConfigResult).toEqual({ gasUsageConfigId });
    expect(await remaining()).toEqual({
      windowDurationMinutes: 43200,
      windowLimitUsd: "100",
      usageUsd: "0",
      remainingUsd: "100.00",
    });
    expect((await remaining(subOrganizationId, subKey)).windowLimitUsd).toBe("0.75");
    // What the second upsert left out (`enabled`, `solanaConfig`) keeps its stored value.
    const stored = await fixture.engine.store.read(async (reader) => {
      const configId = await reader.lookup(
        "gasUsageConfigByOrganization",
        INDEX.gasUsageConfigByOrganization(fixture.organizationId),
      );
      return configId === undefined ? undefined : reader.get("gasUsageConfigs", configId);
    });
    expect(stored).toMatchObject({
      id: gasUsageConfigId,
      organizationId: fixture.organizationId,
      orgWindowLimitUsd: "100",
      subOrgWindowLimitUsd: "0.75",
      windowDurationMinutes: 43200,
      enabled: true,
      solanaRentPrefundEnabled: false,
    });
  });

  it("refuses a sub-organization's upsert: the billing organization sets the limits", async () => {
    const response = await upsertOverHttp(subKey, subOrganizationId, {
      orgWindowLimitUsd: "1",
      subOrgWindowLimitUsd: "1",
      windowDurationMinutes: "60",
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 9 });
    expect(JSON.stringify(response.json)).toContain("NOT_BILLING_ORGANIZATION");
    expect((await remaining(subOrganizationId, subKey)).windowLimitUsd).toBe("0.75");
  });
});

describe("bad values", () => {
  const good = { orgWindowLimitUsd: "10", subOrgWindowLimitUsd: "1", windowDurationMinutes: "60" };
  const cases: [string, Record<string, unknown>, string][] = [
    ["a negative limit", { orgWindowLimitUsd: "-1" }, "parameters.orgWindowLimitUsd"],
    ["a non-numeric limit", { subOrgWindowLimitUsd: "ten" }, "parameters.subOrgWindowLimitUsd"],
    ["an exponent", { orgWindowLimitUsd: "1e3" }, "parameters.orgWindowLimitUsd"],
    ["an empty limit", { subOrgWindowLimitUsd: "" }, "parameters.subOrgWindowLimitUsd"],
    ["a huge limit", { orgWindowLimitUsd: "1000000000" }, "parameters.orgWindowLimitUsd"],
    ["a limit finer than a micro-dollar", { orgWindowLimitUsd: "0.0000001" }, "parameters.orgWindowLimitUsd"],
    ["a number where a string goes", { orgWindowLimitUsd: 10 }, "parameters.orgWindowLimitUsd"],
    ["a zero window", { windowDurationMinutes: "0" }, "parameters.windowDurationMinutes"],
    ["a window past 30 days", { windowDurationMinutes: "43201" }, "parameters.windowDurationMinutes"],
    ["a negative window", { windowDurationMinutes: "-5" }, "parameters.windowDurationMinutes"],
    ["a fractional window", { windowDurationMinutes: "1.5" }, "parameters.windowDurationMinutes"],
    ["a huge window", { windowDurationMinutes: "99999999999999999999" }, "parameters.windowDurationMinutes"],
    ["a missing window", { windowDurationMinutes: undefined }, "parameters.windowDurationMinutes"],
    ["a non-boolean enabled", { enabled: "yes" }, "parameters.enabled"],
  ];

  it.each(cases)("%s is INVALID_ARGUMENT naming the field, and nothing changes", async (_, change, field) => {
    const before = await remaining();
    const error = await refusal(
      fixture.root.upsertGasUsageConfig({
        organizationId: fixture.organizationId,
        parameters: { ...good, ...change } as never,
      }),
      "INVALID_ARGUMENT",
    );
    expect(error.details.field).toBe(field);
    expect(await remaining()).toEqual(before);
  });

  it("over HTTP, a bad value is a 400 naming the field", async () => {
    const response = await upsertOverHttp(fixture.rootKey, fixture.organizationId, {
      ...good,
      orgWindowLimitUsd: "-3",
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 3 });
    expect(JSON.stringify(response.json)).toContain("parameters.orgWindowLimitUsd");
  });
});

describe("policies", () => {
  it("a member needs a policy on SPONSORSHIP / UPDATE", async () => {
    const parameters = { orgWindowLimitUsd: "7", subOrgWindowLimitUsd: "0.75", windowDurationMinutes: "43200" };
    await refusal(
      alice.as.upsertGasUsageConfig({ organizationId: fixture.organizationId, parameters }),
      "PERMISSION_DENIED",
    );
    expect((await remaining()).windowLimitUsd).toBe("100");
    await addPolicy(fixture.root, fixture.organizationId, {
      policyName: "alice sets sponsorship limits",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'SPONSORSHIP' && activity.action == 'UPDATE'",
      consensus: `approvers.any(user, user.id == '${alice.userId}')`,
    });
    const { activity } = await alice.as.upsertGasUsageConfig({ organizationId: fixture.organizationId, parameters });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await remaining()).windowLimitUsd).toBe("7");
  });
});

describe("durability", () => {
  const directories: string[] = [];
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  /** Configures limits on a fresh engine over `store`, then reads them on a second engine over `reopen()`. */
  async function survivesReopen<S extends FileStore | PostgresStore>(first: S, reopen: () => Promise<S>) {
    const keyEncryptionKey = randomBytes(32);
    const engine = new CustodyEngine({ store: first, keyEncryptionKey });
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Durable",
      rootUsers: [
        {
          userName: "root",
          apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
        },
      ],
    });
    const root = engine.as({ userId: rootUserIds[0] as string });
    const { activity } = await root.upsertGasUsageConfig({
      organizationId,
      parameters: { orgWindowLimitUsd: "12.34", subOrgWindowLimitUsd: "1", windowDurationMinutes: "90" },
    });
    await engine.close();
    await first.close();

    const second = await reopen();
    const reopened = new CustodyEngine({ store: second, keyEncryptionKey });
    const again = reopened.as({ userId: rootUserIds[0] as string });
    expect(await again.getGasUsage({ organizationId })).toEqual({
      windowDurationMinutes: 90,
      windowLimitUsd: "12.34",
      usageUsd: "0",
    });
    // An upsert after the reopen updates the same config.
    const updated = await again.upsertGasUsageConfig({
      organizationId,
      parameters: { orgWindowLimitUsd: "1", subOrgWindowLimitUsd: "1", windowDurationMinutes: "90" },
    });
    expect(updated.activity.result!.upsertGasUsageConfigResult).toEqual(activity.result!.upsertGasUsageConfigResult);
    await reopened.close();
    await second.close();
  }

  it("a FileStore reopened keeps the config", async () => {
    const directory = mkdtempSync(join(tmpdir(), "custodian-gas-"));
    directories.push(directory);
    await survivesReopen(await FileStore.open(directory), () => FileStore.open(directory));
  });

  it("a PostgresStore reopened keeps the config", async () => {
    const { connection, schema } = await testDatabase();
    await survivesReopen(await PostgresStore.open(connection, { schema }), () =>
      PostgresStore.open(connection, { schema }),
    );
  });
});
