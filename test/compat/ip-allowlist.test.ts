/**
 * IP allow-lists through the HTTP adapter on a loopback port: `set_ip_allowlist`, `get_ip_allowlist` and
 * `remove_ip_allowlist` through `@turnkey/http` and `@turnkey/sdk-server` (answers checked against the API
 * description), then enforcement: an organization list that leaves out 127.0.0.1 refuses the clients with
 * PERMISSION_DENIED and records nothing, an API key's own list speaks for that key while the organization's is
 * enabled (a passkey meets the organization's), a stamp that does not verify is refused as before (no list is
 * revealed), a sub-organization is never held to its parent's list, a trusted proxy's `X-Forwarded-For` is
 * believed (from the right) and an untrusted one's is not, an address no one can tell meets `onEvaluationError`.
 * Hostile CIDRs and parameters are refused naming the field and change nothing.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFetchHandler, createHttpHandler } from "../../src/http.js";
import type { CustodyEngine } from "../../src/index.js";
import { addPolicy, type Member, organizationWithMembers } from "../support/consensus.js";
import { expectCustodyError } from "../support/custody-error.js";
import { type ApiKeyPair, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";
import { passkeyParams } from "../support/signers.js";
import { installNavigatorCredentials, SoftwareAuthenticator } from "../support/software-authenticator.js";
import { conformanceFaults } from "../support/swagger-conformance.js";

const SET = "/public/v1/submit/set_ip_allowlist";
const REMOVE = "/public/v1/submit/remove_ip_allowlist";
const GET = "/public/v1/query/get_ip_allowlist";

let engine: CustodyEngine;
let root: CustodyEngine;
let organizationId: string;
let rootKey: ApiKeyPair;
let alice: Member;
let direct: RunningServer;
let proxied: RunningServer;

function httpClient(key: ApiKeyPair, server: RunningServer = direct) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

function sdk(key: ApiKeyPair) {
  return new Turnkey({
    apiBaseUrl: direct.baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

/** Sets the organization's list as the host, in-process (never held to a list, as the hosted dashboard). */
async function hostSets(parameters: { enabled?: boolean; rules: { cidr: string }[]; publicKey?: string }) {
  await root.setIpAllowlist({ organizationId, parameters });
}

/** The refusal `@turnkey/http` threw, or a failure if the call went through. */
async function refused(promise: Promise<unknown>): Promise<TurnkeyRequestError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the request to be refused");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TurnkeyRequestError);
  return error as TurnkeyRequestError;
}

async function activityCount(): Promise<number> {
  const { activities } = await root.getActivities({ organizationId, paginationOptions: { limit: "100" } });
  return activities.length;
}

/** A whoami stamped by `key` through `@turnkey/http`, sent to `server` with extra headers. */
async function whoamiWith(server: RunningServer, key: ApiKeyPair, headers: Record<string, string | string[]>) {
  const signed = await httpClient(key, server).stampGetWhoami({ organizationId });
  return post(signed.url, signed.body, { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue, ...headers });
}

beforeAll(async () => {
  const fixture = await organizationWithMembers(["alice"]);
  ({ engine, root, organizationId, rootKey } = fixture);
  alice = fixture.members.alice;
  direct = await serve(engine);
  proxied = await serve(engine, { trustedProxies: ["127.0.0.0/8", "::1"] });
});

afterAll(async () => {
  await direct.close();
  await proxied.close();
});

beforeEach(async () => {
  await root.removeIpAllowlist({ organizationId, parameters: {} });
  await root.removeIpAllowlist({ organizationId, parameters: { publicKey: alice.key.publicKey } });
});

describe("set, get and remove through the official clients", () => {
  it("stores the rules normalized, first of each CIDR kept, and answers as the description says", async () => {
    const client = httpClient(rootKey);
    const set = await client.setIpAllowlist({
      type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        enabled: false,
        rules: [
          { cidr: "192.168.1.100/24", label: "Office" },
          { cidr: "2001:DB8:0:0:0:0:0:1/48" },
          { cidr: "192.168.1.0/24", label: "VPN" },
          { cidr: "::ffff:10.1.2.3/120", label: "mapped" },
        ],
      },
    });
    expect(set.activity).toMatchObject({ status: "ACTIVITY_STATUS_COMPLETED", type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST" });
    expect(set.activity.result.setIpAllowlistResult).toEqual({});
    expect(conformanceFaults(SET, set)).toEqual([]);

    const got = await client.getIpAllowlist({ organizationId });
    expect(conformanceFaults(GET, got)).toEqual([]);
    expect(got.allowlist).toMatchObject({ organizationId, enabled: false, onEvaluationError: "DENY" });
    expect(got.allowlist.publicKey).toBeUndefined();
    expect(got.allowlist.rules.map(({ cidr, label }) => ({ cidr, label }))).toEqual([
      { cidr: "192.168.1.0/24", label: "Office" },
      { cidr: "2001:db8::/48", label: "" },
      { cidr: "::ffff:a01:200/120", label: "mapped" },
    ]);
    for (const rule of got.allowlist.rules) expect(rule.createdAt).toMatch(/^[0-9]+$/);

    const removed = await client.removeIpAllowlist({
      type: "ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {},
    });
    expect(removed.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(conformanceFaults(REMOVE, removed)).toEqual([]);
    const after = await client.getIpAllowlist({ organizationId });
    expect(after.allowlist).toEqual({ organizationId, rules: [] });
    expect(conformanceFaults(GET, after)).toEqual([]);
  });

  it("spells IPv6 blocks as RFC 5952 does, host bits cleared", async () => {
    const spellings: [string, string][] = [
      ["2001:0DB8:0000:0001:0000:0000:0000:0000/64", "2001:db8:0:1::/64"],
      ["1:0:0:1:0:0:0:1/128", "1:0:0:1::1/128"],
      ["0:0:0:0:0:0:0:1/128", "::1/128"],
      ["::/128", "::/128"],
      ["2001:db8:1:2:3:4:5:6/48", "2001:db8:1::/48"],
      ["2001:db8:0:0:1:0:0:ffff/127", "2001:db8::1:0:0:fffe/127"],
      ["64:ff9b::192.0.2.33/120", "64:ff9b::c000:200/120"],
      ["203.0.113.77/28", "203.0.113.64/28"],
      ["203.0.113.77/32", "203.0.113.77/32"],
      ["10.0.255.255/20", "10.0.240.0/20"],
    ];
    await hostSets({ enabled: false, rules: spellings.map(([cidr]) => ({ cidr })) });
    const { allowlist } = await httpClient(rootKey).getIpAllowlist({ organizationId });
    expect(allowlist.rules.map((rule) => rule.cidr)).toEqual(spellings.map(([, normalized]) => normalized));
  });

  it("keeps an API key's own list through @turnkey/sdk-server, replaced whole by the next set", async () => {
    const client = sdk(rootKey);
    await client.setIpAllowlist({
      publicKey: alice.key.publicKey,
      rules: [{ cidr: "10.0.0.0/24", label: "first" }, { cidr: "10.0.1.0/24" }],
    });
    const first = await client.getIpAllowlist({ organizationId, publicKey: alice.key.publicKey });
    expect(first.allowlist.rules.map((rule) => rule.cidr)).toEqual(["10.0.0.0/24", "10.0.1.0/24"]);
    expect(first.allowlist.publicKey).toBe(alice.key.publicKey.toLowerCase());
    expect(first.allowlist.enabled).toBeUndefined();

    await client.setIpAllowlist({ publicKey: alice.key.publicKey, rules: [{ cidr: "10.0.1.9/24", label: "second" }] });
    const second = await client.getIpAllowlist({ organizationId, publicKey: alice.key.publicKey });
    expect(second.allowlist.rules).toEqual([
      { cidr: "10.0.1.0/24", label: "second", createdAt: first.allowlist.rules[1]?.createdAt },
    ]);
    // The organization's own list is another list.
    expect((await client.getIpAllowlist({ organizationId })).allowlist.rules).toEqual([]);

    await client.removeIpAllowlist({ publicKey: alice.key.publicKey });
    expect((await client.getIpAllowlist({ organizationId, publicKey: alice.key.publicKey })).allowlist.rules).toEqual(
      [],
    );
  });

  it("is judged by policies as CONFIG / UPDATE and CONFIG / DELETE", async () => {
    const client = httpClient(alice.key);
    const set = () =>
      client.setIpAllowlist({
        type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { enabled: false, rules: [{ cidr: "10.0.0.0/24" }] },
      });
    const denied = await refused(set());
    expect(denied.code).toBe(7);
    expect((await root.getIpAllowlist({ organizationId })).allowlist.rules).toEqual([]);

    const policyId = await addPolicy(root, organizationId, {
      policyName: "alice configures",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${alice.userId}')`,
      condition: "activity.resource == 'CONFIG' && activity.action == 'UPDATE'",
    });
    expect((await set()).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const remove = () =>
      client.removeIpAllowlist({
        type: "ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: {},
      });
    expect((await refused(remove())).code).toBe(7);
    await root.deletePolicy({ organizationId, parameters: { policyId } });
  });
});

describe("enforcement by the HTTP adapter", () => {
  it("refuses every key of the organization from an address its enabled list leaves out, recording nothing", async () => {
    await hostSets({ enabled: true, rules: [{ cidr: "10.0.0.0/24" }] });
    const before = await activityCount();
    const error = await refused(httpClient(alice.key).getWhoami({ organizationId }));
    expect(error.code).toBe(7);
    expect(error.message).toContain("127.0.0.1");
    expect(error.message).toContain("organization's IP allowlist");
    expect(JSON.stringify(error.details)).toContain("IP_NOT_ALLOWED");
    const activity = await refused(
      httpClient(rootKey).createPrivateKeyTag({
        type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { privateKeyTagName: "blocked", privateKeyIds: [] },
      }),
    );
    expect(activity.code).toBe(7);
    expect(await activityCount()).toBe(before);

    // The host is never held to it, and lets the loopback network in.
    await hostSets({ enabled: true, rules: [{ cidr: "10.0.0.0/24" }, { cidr: "127.0.0.0/20" }] });
    expect((await httpClient(alice.key).getWhoami({ organizationId })).userId).toBe(alice.userId);
  });

  it("answers a stamp that does not verify as unauthenticated, telling a stranger nothing of the list", async () => {
    await hostSets({ enabled: true, rules: [{ cidr: "10.0.0.0/24" }] });
    const signed = await httpClient(alice.key).stampGetWhoami({ organizationId });
    const forged = await post(signed.url, `${signed.body} `, {
      [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue,
    });
    expect(forged.status).toBe(401);
    expect(forged.text).toContain("SIGNATURE_INVALID");
    expect(forged.text).not.toContain("allowlist");
  });

  it("enforces nothing while the organization list is disabled, not even an API key's own list", async () => {
    await hostSets({ enabled: false, rules: [] });
    await hostSets({ publicKey: alice.key.publicKey, rules: [{ cidr: "10.0.0.0/24" }] });
    expect((await httpClient(alice.key).getWhoami({ organizationId })).userId).toBe(alice.userId);
  });

  it("holds a key with its own list to that list only, and the others to the organization's", async () => {
    await hostSets({ enabled: true, rules: [{ cidr: "127.0.0.0/20" }] });
    await hostSets({ publicKey: alice.key.publicKey, rules: [{ cidr: "10.0.0.0/24" }] });
    const error = await refused(httpClient(alice.key).getWhoami({ organizationId }));
    expect(error.code).toBe(7);
    expect(error.message).toContain("API key's IP allowlist");
    expect((await httpClient(rootKey).getWhoami({ organizationId })).organizationId).toBe(organizationId);

    // An empty list of its own allows the key nowhere; removing it falls back to the organization's.
    await hostSets({ publicKey: alice.key.publicKey, rules: [] });
    expect((await refused(httpClient(alice.key).getWhoami({ organizationId }))).code).toBe(7);
    await root.removeIpAllowlist({ organizationId, parameters: { publicKey: alice.key.publicKey } });
    expect((await httpClient(alice.key).getWhoami({ organizationId })).userId).toBe(alice.userId);
  });

  it("holds a passkey's requests to the organization's list, never to an API key's", async () => {
    const authenticator = new SoftwareAuthenticator();
    await root.createAuthenticators({
      organizationId,
      parameters: { userId: alice.userId, authenticators: [passkeyParams(authenticator)] },
    });
    const uninstall = installNavigatorCredentials(authenticator, "http://localhost");
    try {
      const passkey = new TurnkeyClient({ baseUrl: direct.baseUrl }, new WebauthnStamper({ rpId: "localhost" }));
      await hostSets({ enabled: true, rules: [{ cidr: "127.0.0.0/20" }] });
      await hostSets({ publicKey: alice.key.publicKey, rules: [] });
      expect((await passkey.getWhoami({ organizationId })).userId).toBe(alice.userId);
      await hostSets({ enabled: true, rules: [{ cidr: "10.0.0.0/24" }] });
      const error = await refused(passkey.getWhoami({ organizationId }));
      expect(error.code).toBe(7);
      expect(error.message).toContain("organization's IP allowlist");
    } finally {
      uninstall();
    }
  });

  it("drops an API key's list with the key", async () => {
    const key = p256KeyPair();
    const { activity } = await root.createApiKeys({
      organizationId,
      parameters: {
        userId: alice.userId,
        apiKeys: [{ apiKeyName: "short-lived", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    });
    const apiKeyId = activity.result!.createApiKeysResult.apiKeyIds[0] as string;
    await hostSets({ publicKey: key.publicKey, rules: [{ cidr: "10.0.0.0/24" }] });
    await root.deleteApiKeys({ organizationId, parameters: { userId: alice.userId, apiKeyIds: [apiKeyId] } });
    expect((await root.getIpAllowlist({ organizationId, publicKey: key.publicKey })).allowlist.rules).toEqual([]);
  });

  it("never holds a sub-organization to its parent's list, and gives a sub-organization none", async () => {
    const subKey = p256KeyPair();
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: subOrganizationParameters("Allowlisted sub", subKey),
    });
    const subOrganizationId = activity.result!.createSubOrganizationResultV8.subOrganizationId;
    await hostSets({ enabled: true, rules: [{ cidr: "10.0.0.0/24" }] });
    const sub = httpClient(subKey);
    expect((await sub.getWhoami({ organizationId: subOrganizationId })).organizationId).toBe(subOrganizationId);

    const refusal = await refused(
      sub.setIpAllowlist({
        type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST",
        timestampMs: String(Date.now()),
        organizationId: subOrganizationId,
        parameters: { enabled: true, rules: [{ cidr: "10.0.0.0/24" }] },
      }),
    );
    expect(refusal.code).toBe(9);
    expect(refusal.message).toContain("sub-organization");
    expect((await sub.getIpAllowlist({ organizationId: subOrganizationId })).allowlist.rules).toEqual([]);
  });

  it("believes a trusted proxy's X-Forwarded-For, read from the right, and no one else's", async () => {
    await hostSets({ enabled: true, rules: [{ cidr: "198.51.100.0/24" }, { cidr: "2001:db8:5::/48" }] });
    const forwarded = await whoamiWith(proxied, alice.key, { "x-forwarded-for": "198.51.100.7" });
    expect(forwarded.status).toBe(200);
    expect(conformanceFaults("/public/v1/query/whoami", forwarded.json)).toEqual([]);
    const ipv6 = await whoamiWith(proxied, alice.key, { "x-forwarded-for": "2001:db8:5:0:0:0:0:9" });
    expect(ipv6.status).toBe(200);

    // A client writing the allowed address first gains nothing: the proxy's own entry is the last one.
    const spoofed = await whoamiWith(proxied, alice.key, { "x-forwarded-for": ["198.51.100.7", "203.0.113.5"] });
    expect(spoofed.status).toBe(403);
    expect(spoofed.json?.code).toBe(7);
    expect(spoofed.json?.message).toContain("203.0.113.5");

    // Several trusted hops are walked back to the first untrusted address.
    const twoHops = await whoamiWith(proxied, alice.key, { "x-forwarded-for": "198.51.100.7, 127.0.0.9" });
    expect(twoHops.status).toBe(200);

    // The server that trusts no proxy reads the socket's address only.
    const untrusted = await whoamiWith(direct, alice.key, { "x-forwarded-for": "198.51.100.7" });
    expect(untrusted.status).toBe(403);
    expect(untrusted.json?.message).toContain("127.0.0.1");
    const missing = await whoamiWith(proxied, alice.key, {});
    expect(missing.status).toBe(403);
  });

  it("settles an address no one can tell by the list's onEvaluationError", async () => {
    await hostSets({ enabled: true, rules: [{ cidr: "198.51.100.0/24" }] });
    const garbled = await whoamiWith(proxied, alice.key, { "x-forwarded-for": "unknown" });
    expect(garbled.status).toBe(403);
    expect(garbled.json?.message).toContain("could not be determined");

    const handler = createFetchHandler(engine);
    const fetchWhoami = async (clientAddress?: string) => {
      const signed = await httpClient(alice.key).stampGetWhoami({ organizationId });
      const request = new Request(signed.url, {
        method: "POST",
        body: signed.body,
        headers: { [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue },
      });
      return handler(request, clientAddress);
    };
    expect((await fetchWhoami()).status).toBe(403);
    expect((await fetchWhoami("198.51.100.20")).status).toBe(200);
    expect((await fetchWhoami("203.0.113.20")).status).toBe(403);

    await root.setIpAllowlist({
      organizationId,
      parameters: { enabled: true, rules: [{ cidr: "198.51.100.0/24" }], onEvaluationError: "ALLOW" },
    });
    expect((await fetchWhoami()).status).toBe(200);
    expect((await whoamiWith(proxied, alice.key, { "x-forwarded-for": "unknown" })).status).toBe(200);
    expect((await fetchWhoami("203.0.113.20")).status).toBe(403);
  });

  it("refuses a trusted proxy that is no address or CIDR when the handler is made", async () => {
    for (const handlerOf of [createHttpHandler, createFetchHandler]) {
      await expectCustodyError(
        (async () => handlerOf(engine, { trustedProxies: ["127.0.0.1", "proxy.internal"] }))(),
        "INVALID_ARGUMENT",
        "trustedProxies[1]",
      );
    }
  });
});

describe("hostile parameters", () => {
  const HOSTILE: [string, unknown][] = [
    ["10.0.0.0/8", "wider than /20"],
    ["2001:db8::/32", "wider than /48"],
    ["10.0.0.0", "no prefix"],
    ["10.0.0.0/33", "prefix past the address"],
    ["10.0.0.0/024", "leading zero"],
    ["10.0.0.0/-1", "negative prefix"],
    ["10.0.0.0/24/1", "two slashes"],
    ["fe80::1%eth0/64", "zone index"],
    ["010.0.0.0/24", "octal-looking octet"],
    ["not-an-ip/24", "no address"],
    [" 10.0.0.0/24", "padding"],
    ["", "empty"],
  ];

  it.each(HOSTILE)("refuses the CIDR %j (%s) naming the rule, and keeps the stored list", async (cidr) => {
    await hostSets({ enabled: false, rules: [{ cidr: "10.9.0.0/24" }] });
    const response = await post(
      `${direct.baseUrl}${SET}`,
      ...(await stamped(rootKey, {
        enabled: true,
        rules: [{ cidr: "10.1.0.0/24" }, { cidr }],
      })),
    );
    expect(response.status).toBe(400);
    expect(response.json?.code).toBe(3);
    expect(JSON.stringify(response.json?.details)).toContain('"field":"parameters.rules[1].cidr"');
    const { allowlist } = await root.getIpAllowlist({ organizationId });
    expect(allowlist.enabled).toBe(false);
    expect(allowlist.rules.map((rule) => rule.cidr)).toEqual(["10.9.0.0/24"]);
  });

  it("refuses an eleventh CIDR of one family, duplicates not counted", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ cidr: `10.0.${i}.0/24` }));
    await hostSets({ enabled: false, rules: [...ten, { cidr: "10.0.0.1/24" }, { cidr: "2001:db8::/48" }] });
    expect((await root.getIpAllowlist({ organizationId })).allowlist.rules).toHaveLength(11);
    await expectCustodyError(
      root.setIpAllowlist({ organizationId, parameters: { enabled: false, rules: [...ten, { cidr: "10.1.0.0/24" }] } }),
      "INVALID_ARGUMENT",
      "parameters.rules[10].cidr",
    );
    expect((await root.getIpAllowlist({ organizationId })).allowlist.rules).toHaveLength(11);
  });

  it("refuses other bad parameters naming them", async () => {
    await expectCustodyError(
      root.setIpAllowlist({ organizationId, parameters: { rules: [{ cidr: "10.0.0.0/24" }] } }),
      "INVALID_ARGUMENT",
      "parameters.enabled",
    );
    await expectCustodyError(
      root.setIpAllowlist({
        organizationId,
        parameters: { enabled: true, rules: [], onEvaluationError: "MAYBE" as "ALLOW" },
      }),
      "INVALID_ARGUMENT",
      "parameters.onEvaluationError",
    );
    await expectCustodyError(
      root.setIpAllowlist({ organizationId, parameters: { publicKey: p256KeyPair().publicKey, rules: [] } }),
      "NOT_FOUND",
      "parameters.publicKey",
    );
    await expectCustodyError(
      root.setIpAllowlist({
        organizationId,
        parameters: { enabled: true, rules: [{ cidr: "10.0.0.0/24", label: "x".repeat(257) }] },
      }),
      "INVALID_ARGUMENT",
      "parameters.rules[0].label",
    );
    expect(await root.getIpAllowlist({ organizationId })).toEqual({ allowlist: { organizationId, rules: [] } });
  });
});

/** A set_ip_allowlist body stamped by `key` with the official stamper, as `post` takes it. */
async function stamped(
  key: ApiKeyPair,
  parameters: Record<string, unknown>,
): Promise<[string, Record<string, string>]> {
  const body = JSON.stringify({
    type: "ACTIVITY_TYPE_SET_IP_ALLOWLIST",
    timestampMs: String(Date.now()),
    organizationId,
    parameters,
  });
  const stamp = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
  return [body, { [stamp.stampHeaderName]: stamp.stampHeaderValue }];
}
