/**
 * A parent's credential acting in a sub-organization (the authentication activities, here `oauth`) is
 * governed by the parent's policies and root quorum, as the parent's users are; votes on such an activity
 * come from the parent's users too.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { generateP256KeyPair } from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPolicy, organizationWithMembers, refusal, tagUsers } from "../support/consensus.js";
import { serveJwks, TestIssuer } from "../support/oidc.js";

let issuer: TestIssuer;
let jwks: Awaited<ReturnType<typeof serveJwks>>;

beforeAll(async () => {
  issuer = await TestIssuer.create("https://issuer.governing.test", "ES256");
  jwks = await serveJwks(issuer.jwks);
});

afterAll(() => jwks.close());

/** A parent with a non-root backend user, and a sub-organization whose user signs in with the issuer. */
async function setup() {
  const fixture = await organizationWithMembers(["backend", "reviewer", "outsider"], {
    oidcIssuers: { [issuer.issuer]: { jwksUri: jwks.uri } },
  });
  const { root, organizationId } = fixture;
  const { activity } = await root.createSubOrganization({
    organizationId,
    parameters: {
      subOrganizationName: "end user",
      rootUsers: [
        {
          userName: "end user",
          apiKeys: [],
          authenticators: [],
          oauthProviders: [{ providerName: "issuer", oidcToken: await issuer.token({ sub: "end-user" }) }],
        },
      ],
      rootQuorumThreshold: 1,
    },
  });
  const { subOrganizationId, rootUserIds } = activity.result!.createSubOrganizationResultV8 as {
    subOrganizationId: string;
    rootUserIds: string[];
  };
  const oauthParameters = async () => {
    const target = generateP256KeyPair();
    const nonce = bytesToHex(sha256(utf8ToBytes(target.publicKey)));
    return { oidcToken: await issuer.token({ sub: "end-user", extra: { nonce } }), targetPublicKey: target.publicKey };
  };
  return { ...fixture, subOrganizationId, subRoot: fixture.engine.as({ userId: rootUserIds[0]! }), oauthParameters };
}

describe("the organization that governs an activity", () => {
  it("is the parent's for a parent user's oauth in a sub-organization", async () => {
    const { root, organizationId, subOrganizationId, subRoot, members, oauthParameters } = await setup();
    const denied = await refusal(
      members.backend.as.oauth({ organizationId: subOrganizationId, parameters: await oauthParameters() }),
      "PERMISSION_DENIED",
    );
    expect(denied.details.decision).toBe("IMPLICIT_DENY");

    // A sub-organization's policy does not govern the parent's users...
    await addPolicy(subRoot, subOrganizationId, {
      policyName: "any auth",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'AUTH'",
    });
    await refusal(
      members.backend.as.oauth({ organizationId: subOrganizationId, parameters: await oauthParameters() }),
      "PERMISSION_DENIED",
    );
    // ...the parent's does.
    await addPolicy(root, organizationId, {
      policyName: "backend signs users in",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'AUTH' && activity.action == 'CREATE'",
      consensus: `approvers.any(user, user.id == '${members.backend.userId}')`,
    });
    const { activity } = await members.backend.as.oauth({
      organizationId: subOrganizationId,
      parameters: await oauthParameters(),
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.organizationId).toBe(subOrganizationId);
    expect(activity.result!.oauthResult).toMatchObject({ credentialBundle: expect.any(String) });
  });

  it("takes votes from the parent's users when the parent's consensus holds it", async () => {
    const { root, organizationId, subOrganizationId, subRoot, members, oauthParameters, engine } = await setup();
    const tag = await tagUsers(root, organizationId, "auth reviewers", [members.reviewer.userId]);
    await addPolicy(root, organizationId, {
      policyName: "reviewed sign-ins",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'AUTH'",
      consensus: `approvers.any(user, user.id == '${members.backend.userId}') && approvers.any(user, user.tags.contains('${tag}'))`,
    });
    const pending = (
      await members.backend.as.oauth({ organizationId: subOrganizationId, parameters: await oauthParameters() })
    ).activity;
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");

    // The sub-organization's root user is no root user of the governing (parent) organization.
    await refusal(
      subRoot.approveActivity({ organizationId: subOrganizationId, parameters: { fingerprint: pending.fingerprint } }),
      "PERMISSION_DENIED",
      "VOTER_NOT_COUNTED",
    );
    await refusal(
      members.outsider.as.approveActivity({
        organizationId: subOrganizationId,
        parameters: { fingerprint: pending.fingerprint },
      }),
      "PERMISSION_DENIED",
      "VOTER_NOT_COUNTED",
    );
    const { activity } = await members.reviewer.as.approveActivity({
      organizationId: subOrganizationId,
      parameters: { fingerprint: pending.fingerprint },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.result!.oauthResult).toMatchObject({ credentialBundle: expect.any(String) });
    expect((await engine.explainActivity(pending.id)).decisions.map((d) => d.reason)).toEqual([
      "CONSENSUS_PENDING",
      "POLICY_ALLOW",
    ]);
  });
});
