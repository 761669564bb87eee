/**
 * Identity squatting through `create_oauth_providers` V2 `oidcClaims`: claims carry no proof, so (as the
 * hosted service's "verified by association") they only add an audience to an identity (iss, sub) the same
 * user proved with a token. A member, or a sibling sub-organization, cannot claim someone else's identity.
 */
import { describe, expect, it } from "vitest";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";
import { TestIssuer } from "../support/oidc.js";

async function setup() {
  const issuer = await TestIssuer.create("https://accounts.test");
  const fixture = await engineWithOrganization({ oidcIssuers: { [issuer.issuer]: { jwks: issuer.jwks } } });
  const { root, organizationId, rootUserId } = fixture;
  // The root user proves their identity with a token.
  await root.createOauthProviders({
    organizationId,
    parameters: {
      userId: rootUserId,
      oauthProviders: [{ providerName: "web", oidcToken: await issuer.token({ sub: "root-person", aud: "web" }) }],
    },
  });
  return { issuer, ...fixture };
}

describe("oidcClaims without a token", () => {
  it("lets a user add another audience to the identity they proved", async () => {
    const { issuer, root, organizationId, rootUserId } = await setup();
    const { activity } = await root.createOauthProviders({
      organizationId,
      parameters: {
        userId: rootUserId,
        oauthProviders: [{ providerName: "ios", oidcClaims: { iss: issuer.issuer, sub: "root-person", aud: "ios" } }],
      },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("refuses a member claiming another user's identity for themselves", async () => {
    const { issuer, engine, root, organizationId } = await setup();
    const created = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          {
            userName: "mallory",
            apiKeys: [{ apiKeyName: "k", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
            authenticators: [],
            oauthProviders: [],
            userTags: [],
          },
        ],
      },
    });
    const malloryId = (created.activity.result!.createUsersResult as { userIds: string[] }).userIds[0] as string;
    const mallory = engine.as({ userId: malloryId });
    // The same identity with a new audience, or an audience the victim already registered: both refused.
    for (const aud of ["android", "web"]) {
      const error = await expectCustodyError(
        mallory.createOauthProviders({
          organizationId,
          parameters: {
            userId: malloryId,
            oauthProviders: [{ providerName: "mine", oidcClaims: { iss: issuer.issuer, sub: "root-person", aud } }],
          },
        }),
        "FAILED_PRECONDITION",
        "parameters.oauthProviders[0].oidcClaims",
      );
      expect(error.details.reason).toBe("OAUTH_CLAIMS_UNVERIFIED");
    }
    expect((await root.getOauthProviders({ organizationId, userId: malloryId })).oauthProviders).toEqual([]);
  });

  it("refuses a sibling sub-organization claiming an identity another organization's user holds", async () => {
    const { issuer, engine, root, organizationId } = await setup();
    const subKey = p256KeyPair();
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: subOrganizationParameters("sibling", subKey),
    });
    const result = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const subRootId = result.rootUserIds[0] as string;
    await expectCustodyError(
      engine.as({ userId: subRootId }).createOauthProviders({
        organizationId: result.subOrganizationId,
        parameters: {
          userId: subRootId,
          oauthProviders: [{ providerName: "x", oidcClaims: { iss: issuer.issuer, sub: "root-person", aud: "web" } }],
        },
      }),
      "FAILED_PRECONDITION",
      "parameters.oauthProviders[0].oidcClaims",
    );
    // Nor can a parent create a sub-organization whose root user holds claims only.
    await expectCustodyError(
      root.createSubOrganization({
        organizationId,
        parameters: {
          ...subOrganizationParameters("squatter"),
          rootUsers: [
            {
              userName: "squatter",
              apiKeys: [],
              authenticators: [],
              oauthProviders: [
                { providerName: "x", oidcClaims: { iss: issuer.issuer, sub: "root-person", aud: "web" } },
              ],
            },
          ],
        },
      }),
      "FAILED_PRECONDITION",
      "parameters.rootUsers[0].oauthProviders[0].oidcClaims",
    );
  });
});
