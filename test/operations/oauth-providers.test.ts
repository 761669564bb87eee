/**
 * OAuth providers through the engine: OIDC tokens verified with jose against a local issuer's keys (inline
 * JWKS or a JWKS URL), explicit claims (V2), the refusals (bad signature, wrong audience, expired, `alg:
 * none`, untrusted issuer, duplicates), deletion and the query.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CustodyEngine, CustodyEngineOptions } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import { serveJwks, TestIssuer } from "../support/oidc.js";

const FIELD = "parameters.oauthProviders[0]";
const NOW = Date.UTC(2026, 5, 1, 12);

async function setup(issuer: TestIssuer, options: CustodyEngineOptions = {}) {
  return engineWithOrganization({
    clock: () => NOW,
    oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks, audiences: ["client-1", "client-2"] } },
    ...options,
  });
}

async function providers(root: CustodyEngine, organizationId: string, userId?: string) {
  return (await root.getOauthProviders({ organizationId, ...(userId === undefined ? {} : { userId }) })).oauthProviders;
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

describe("create_oauth_providers with an OIDC token", () => {
  for (const alg of ["RS256", "ES256"] as const) {
    it(`verifies an ${alg} token and stores its issuer, audience and subject`, async () => {
      const issuer = await TestIssuer.create("https://accounts.test", alg);
      const { root, organizationId, rootUserId } = await setup(issuer);
      const oidcToken = await issuer.token({ sub: "user-42", aud: "client-1", nowMs: NOW });
      const { activity } = await root.createOauthProviders({
        organizationId,
        parameters: { userId: rootUserId, oauthProviders: [{ providerName: "Accounts", oidcToken }] },
      });
      expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2");
      const { providerIds } = activity.result!.createOauthProvidersResultV2 as { providerIds: string[] };
      expect(await providers(root, organizationId, rootUserId)).toEqual([
        {
          providerId: providerIds[0],
          providerName: "Accounts",
          issuer: "https://accounts.test",
          audience: "client-1",
          subject: "user-42",
          createdAt: expect.any(Object),
          updatedAt: expect.any(Object),
        },
      ]);
    });
  }

  it("accepts V1 (token only), with its own intent and result members", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await setup(issuer);
    const { activity } = await root.createOauthProviders({
      organizationId,
      type: "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
      parameters: {
        userId: rootUserId,
        oauthProviders: [{ providerName: "v1", oidcToken: await issuer.token({ nowMs: NOW }) }],
      },
    });
    expect(activity.intent).toHaveProperty("createOauthProvidersIntent");
    expect(activity.result).toHaveProperty("createOauthProvidersResult.providerIds");
  });

  it("picks the accepted audience of a token that names several", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await setup(issuer);
    const oidcToken = await issuer.token({ aud: ["other-app", "client-2"], nowMs: NOW });
    await root.createOauthProviders({
      organizationId,
      parameters: { userId: rootUserId, oauthProviders: [{ providerName: "multi", oidcToken }] },
    });
    expect((await providers(root, organizationId))[0]?.audience).toBe("client-2");
  });

  it("refuses bad tokens, storing nothing", async () => {
    const issuer = await TestIssuer.create();
    const impostor = await TestIssuer.create(issuer.issuer);
    const { root, organizationId, rootUserId } = await setup(issuer);
    const good = await issuer.token({ nowMs: NOW });
    const [header, payload] = good.split(".");
    const cases: { name: string; token: string; message: RegExp }[] = [
      { name: "bad signature", token: await impostor.token({ nowMs: NOW }), message: /no key of the issuer matches/ },
      {
        name: "signature of another key under the issuer's kid",
        token: `${header}.${payload}.${(await impostor.token({ nowMs: NOW })).split(".")[2]}`,
        message: /signature does not verify/,
      },
      {
        name: "tampered payload",
        token: `${header}.${Buffer.from(JSON.stringify({ iss: issuer.issuer, sub: "admin", aud: "client-1", exp: NOW / 1000 + 60 })).toString("base64url")}.${good.split(".")[2]}`,
        message: /signature does not verify/,
      },
      { name: "wrong audience", token: await issuer.token({ aud: "someone-else", nowMs: NOW }), message: /audience/ },
      { name: "expired", token: await issuer.token({ nowMs: NOW - 7200_000 }), message: /expired/ },
      { name: "alg none", token: issuer.unsignedToken({ nowMs: NOW }), message: /algorithm none/ },
      { name: "not a JWT", token: "not.a.jwt", message: /not a compact JWT/ },
    ];
    for (const { name, token, message } of cases) {
      const error = await refusal(
        root.createOauthProviders({
          organizationId,
          parameters: { userId: rootUserId, oauthProviders: [{ providerName: name, oidcToken: token }] },
        }),
        "INVALID_ARGUMENT",
        `${FIELD}.oidcToken`,
      );
      expect(error.details.reason, name).toBe("INVALID_OIDC_TOKEN");
      expect(error.message, name).toMatch(message);
    }
    expect(await providers(root, organizationId)).toEqual([]);
  });

  it("refuses a token from an issuer the engine does not trust with FAILED_PRECONDITION", async () => {
    const trusted = await TestIssuer.create("https://trusted.test");
    const stranger = await TestIssuer.create("https://stranger.test");
    const { root, organizationId, rootUserId } = await setup(trusted);
    const error = await refusal(
      root.createOauthProviders({
        organizationId,
        parameters: {
          userId: rootUserId,
          oauthProviders: [{ providerName: "s", oidcToken: await stranger.token({ nowMs: NOW }) }],
        },
      }),
      "FAILED_PRECONDITION",
      `${FIELD}.oidcToken`,
    );
    expect(error.message).toContain("https://stranger.test");
  });

  it("fetches the issuer's keys from a JWKS URL, and reports an unreachable key set as UNAVAILABLE", async () => {
    const issuer = await TestIssuer.create();
    const server = await serveJwks(issuer.jwks);
    closeServer = server.close;
    const { root, organizationId, rootUserId } = await engineWithOrganization({
      clock: () => NOW,
      oidcIssuers: { [issuer.issuer]: { jwksUri: server.uri } },
    });
    await root.createOauthProviders({
      organizationId,
      parameters: {
        userId: rootUserId,
        oauthProviders: [{ providerName: "remote", oidcToken: await issuer.token({ sub: "a", nowMs: NOW }) }],
      },
    });
    expect(server.state.fetches).toBe(1);
    expect((await providers(root, organizationId))[0]?.subject).toBe("a");

    // A second token is checked against the cached key set.
    await root.createOauthProviders({
      organizationId,
      parameters: {
        userId: rootUserId,
        oauthProviders: [{ providerName: "cached", oidcToken: await issuer.token({ sub: "b", nowMs: NOW }) }],
      },
    });
    expect(server.state.fetches).toBe(1);

    server.state.status = 503;
    const fresh = await engineWithOrganization({
      clock: () => NOW,
      oidcIssuers: { [issuer.issuer]: { jwksUri: server.uri } },
    });
    const error = await refusal(
      fresh.root.createOauthProviders({
        organizationId: fresh.organizationId,
        parameters: {
          userId: fresh.rootUserId,
          oauthProviders: [{ providerName: "down", oidcToken: await issuer.token({ sub: "c", nowMs: NOW }) }],
        },
      }),
      "UNAVAILABLE",
      `${FIELD}.oidcToken`,
    );
    expect(error.details.reason).toBe("OIDC_KEYS_UNAVAILABLE");
    expect(await providers(fresh.root, fresh.organizationId)).toEqual([]);
  });
});

describe("create_oauth_providers with explicit claims (V2)", () => {
  it("stores the claims, refuses a duplicate (iss, aud, sub) and a provider with both or neither", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await setup(issuer);
    // Claims add an audience to the identity the token proves (the hosted "verified by association").
    const oidcClaims = { iss: issuer.issuer, aud: "client-3", sub: "subject-1" };
    await root.createOauthProviders({
      organizationId,
      parameters: {
        userId: rootUserId,
        oauthProviders: [
          { providerName: "claims", oidcClaims },
          { providerName: "token", oidcToken: await issuer.token({ sub: "subject-1", aud: "client-2", nowMs: NOW }) },
        ],
      },
    });
    // The same (iss, aud, sub) again: a duplicate.
    const duplicate = await refusal(
      root.createOauthProviders({
        organizationId,
        parameters: { userId: rootUserId, oauthProviders: [{ providerName: "again", oidcClaims }] },
      }),
      "ALREADY_EXISTS",
      FIELD,
    );
    expect(duplicate.details.reason).toBe("OAUTH_PROVIDER_ALREADY_EXISTS");
    await refusal(
      root.createOauthProviders({
        organizationId,
        parameters: {
          userId: rootUserId,
          oauthProviders: [{ providerName: "both", oidcClaims, oidcToken: await issuer.token({ nowMs: NOW }) }],
        },
      }),
      "INVALID_ARGUMENT",
      FIELD,
    );
    await refusal(
      root.createOauthProviders({
        organizationId,
        parameters: { userId: rootUserId, oauthProviders: [{ providerName: "neither" }] },
      }),
      "INVALID_ARGUMENT",
      FIELD,
    );
    expect(await providers(root, organizationId)).toHaveLength(2);
  });

  it("holds at most 10 providers per user", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await setup(issuer);
    const ten = [
      { providerName: "p0", oidcToken: await issuer.token({ sub: "s", nowMs: NOW }) },
      ...Array.from({ length: 9 }, (_, i) => ({
        providerName: `p${i + 1}`,
        oidcClaims: { iss: issuer.issuer, aud: `app-${i + 1}`, sub: "s" },
      })),
    ];
    await root.createOauthProviders({ organizationId, parameters: { userId: rootUserId, oauthProviders: ten } });
    await refusal(
      root.createOauthProviders({
        organizationId,
        parameters: {
          userId: rootUserId,
          oauthProviders: [{ providerName: "p10", oidcClaims: { iss: issuer.issuer, aud: "app-10", sub: "s" } }],
        },
      }),
      "RESOURCE_EXHAUSTED",
      FIELD,
    );
  });
});

describe("delete_oauth_providers and get_oauth_providers", () => {
  it("lists by user or for the whole organization and deletes a user's providers only", async () => {
    const issuer = await TestIssuer.create();
    const { root, organizationId, rootUserId } = await setup(issuer);
    const created = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          {
            userName: "member",
            apiKeys: [],
            authenticators: [],
            oauthProviders: [{ providerName: "m", oidcToken: await issuer.token({ sub: "member", nowMs: NOW }) }],
            userTags: [],
          },
        ],
      },
    });
    const [memberId] = (created.activity.result!.createUsersResult as { userIds: string[] }).userIds;
    await root.createOauthProviders({
      organizationId,
      parameters: {
        userId: rootUserId,
        oauthProviders: [{ providerName: "r", oidcToken: await issuer.token({ sub: "root", nowMs: NOW }) }],
      },
    });
    expect((await providers(root, organizationId)).map((p) => p.subject)).toEqual(["root", "member"]);
    const [memberProvider] = await providers(root, organizationId, memberId);
    await refusal(
      root.deleteOauthProviders({
        organizationId,
        parameters: { userId: rootUserId, providerIds: [memberProvider?.providerId as string] },
      }),
      "NOT_FOUND",
      "parameters.providerIds[0]",
    );
    const { activity } = await root.deleteOauthProviders({
      organizationId,
      parameters: { userId: memberId as string, providerIds: [memberProvider?.providerId as string] },
    });
    expect(activity.result).toEqual({ deleteOauthProvidersResult: { providerIds: [memberProvider?.providerId] } });
    expect((await providers(root, organizationId)).map((p) => p.subject)).toEqual(["root"]);
    await refusal(root.getOauthProviders({ organizationId, userId: "ghost" }), "NOT_FOUND", "userId");
  });
});
