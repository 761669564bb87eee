/**
 * Passkeys through the engine: registration from software-authenticator attestations (ES256 and RS256,
 * `none` and `packed` self-attestation), recorded real-authenticator attestations, root users with passkeys,
 * the relying party and its origins, bad input, limits, deletion and the queries.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { encodeBase64Url } from "../../src/crypto/bytes.js";
import type { CustodyEngine, CustodyEngineOptions } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import { passkeyParams } from "../support/signers.js";
import { SoftwareAuthenticator } from "../support/software-authenticator.js";

async function passkeyCount(root: CustodyEngine, organizationId: string, userId: string): Promise<number> {
  return (await root.getAuthenticators({ organizationId, userId })).authenticators.length;
}

const FIELD = "parameters.authenticators[0]";

describe("create_authenticators", () => {
  for (const algorithm of ["ES256", "RS256"] as const) {
    for (const attestation of ["none", "packed"] as const) {
      it(`registers a ${algorithm} passkey with ${attestation} attestation, rendered as v1Authenticator`, async () => {
        const { root, organizationId, rootUserId } = await engineWithOrganization();
        const authenticator = new SoftwareAuthenticator({
          algorithm,
          attestation,
          transports: ["AUTHENTICATOR_TRANSPORT_USB", "AUTHENTICATOR_TRANSPORT_NFC"],
        });
        const params = passkeyParams(authenticator, { authenticatorName: "yubikey" });
        const { activity } = await root.createAuthenticators({
          organizationId,
          parameters: { userId: rootUserId, authenticators: [params] },
        });
        expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2");
        const { authenticatorIds } = activity.result!.createAuthenticatorsResult as { authenticatorIds: string[] };
        const { authenticator: rendered } = await root.getAuthenticator({
          organizationId,
          authenticatorId: authenticatorIds[0] as string,
        });
        expect(Object.keys(rendered).sort()).toEqual(
          [
            "transports",
            "attestationType",
            "aaguid",
            "credentialId",
            "model",
            "credential",
            "authenticatorId",
            "authenticatorName",
            "createdAt",
            "updatedAt",
          ].sort(),
        );
        expect(rendered).toMatchObject({
          authenticatorId: authenticatorIds[0],
          authenticatorName: "yubikey",
          credentialId: authenticator.credentialIdBase64Url,
          transports: ["AUTHENTICATOR_TRANSPORT_USB", "AUTHENTICATOR_TRANSPORT_NFC"],
          attestationType: attestation === "none" ? "none" : "self",
          model: "Security key",
          credential: {
            publicKey: encodeBase64Url(authenticator.publicKeyCose),
            type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
          },
        });
        expect(Buffer.from(rendered.aaguid, "base64url")).toHaveLength(16);
        const { user } = await root.getUser({ organizationId, userId: rootUserId });
        expect(user.authenticators).toEqual([rendered]);
      });
    }
  }

  it("refuses bad attestations and stores nothing", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const authenticator = new SoftwareAuthenticator();
    const good = passkeyParams(authenticator);
    const cases: { name: string; params: typeof good; field: string; reason: string }[] = [
      {
        name: "malformed CBOR",
        params: {
          ...good,
          attestation: { ...good.attestation, attestationObject: encodeBase64Url(Uint8Array.of(0xa3, 0x63, 0x66)) },
        },
        field: `${FIELD}.attestation.attestationObject`,
        reason: "MALFORMED_ATTESTATION",
      },
      {
        name: "wrong challenge",
        params: { ...good, challenge: encodeBase64Url(new Uint8Array(randomBytes(32))) },
        field: `${FIELD}.attestation.clientDataJson`,
        reason: "CHALLENGE_MISMATCH",
      },
      {
        name: "unsupported algorithm (EdDSA)",
        params: passkeyParams(new SoftwareAuthenticator({ algorithm: "EdDSA" })),
        field: `${FIELD}.attestation.attestationObject`,
        reason: "UNSUPPORTED_ALGORITHM",
      },
      {
        name: "origin not allowed",
        params: passkeyParams(authenticator, { origin: "https://phish.example" }),
        field: `${FIELD}.attestation.clientDataJson`,
        reason: "ORIGIN_NOT_ALLOWED",
      },
      {
        name: "another relying party",
        params: passkeyParams(authenticator, { rpId: "phish.example" }),
        field: `${FIELD}.attestation.attestationObject`,
        reason: "RP_ID_MISMATCH",
      },
      {
        name: "credential id of another credential",
        params: { ...good, attestation: { ...good.attestation, credentialId: encodeBase64Url(new Uint8Array(32)) } },
        field: `${FIELD}.attestation.attestationObject`,
        reason: "CREDENTIAL_ID_MISMATCH",
      },
    ];
    for (const { name, params, field, reason } of cases) {
      const error = await refusal(
        root.createAuthenticators({ organizationId, parameters: { userId: rootUserId, authenticators: [params] } }),
        "INVALID_ARGUMENT",
        field,
      );
      expect(error.details.reason, name).toBe(reason);
    }
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(0);
  });

  it("refuses a credential id already registered in the organization, also within one request", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const authenticator = new SoftwareAuthenticator();
    await root.createAuthenticators({
      organizationId,
      parameters: { userId: rootUserId, authenticators: [passkeyParams(authenticator)] },
    });
    const error = await refusal(
      root.createAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticators: [passkeyParams(authenticator)] },
      }),
      "ALREADY_EXISTS",
      `${FIELD}.attestation.credentialId`,
    );
    expect(error.details.reason).toBe("AUTHENTICATOR_ALREADY_EXISTS");
    const twin = new SoftwareAuthenticator();
    await refusal(
      root.createAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticators: [passkeyParams(twin), passkeyParams(twin)] },
      }),
      "ALREADY_EXISTS",
      "parameters.authenticators[1].attestation.credentialId",
    );
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(1);
  });

  it("holds at most 10 passkeys per user", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const ten = Array.from({ length: 10 }, () => passkeyParams(new SoftwareAuthenticator()));
    await root.createAuthenticators({ organizationId, parameters: { userId: rootUserId, authenticators: ten } });
    await refusal(
      root.createAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticators: [passkeyParams(new SoftwareAuthenticator())] },
      }),
      "RESOURCE_EXHAUSTED",
      FIELD,
    );
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(10);
  });
});

describe("recorded attestations of real authenticators", () => {
  const vectors = JSON.parse(
    readFileSync(new URL("../vectors/webauthn/simplewebauthn.json", import.meta.url), "utf8"),
  ) as {
    registrations: {
      name: string;
      rpId: string;
      origin: string;
      challenge: string;
      credentialId: string;
      attestationObject: string;
      clientDataJson: string;
      expected?: { attestationType: string };
    }[];
  };

  for (const vector of vectors.registrations) {
    it(`registers the recorded ${vector.name} through create_authenticators`, async () => {
      const options: CustodyEngineOptions = { webauthn: { rpId: vector.rpId, origins: [vector.origin] } };
      const { root, organizationId, rootUserId } = await engineWithOrganization(options);
      const { activity } = await root.createAuthenticators({
        organizationId,
        parameters: {
          userId: rootUserId,
          authenticators: [
            {
              authenticatorName: vector.name,
              challenge: vector.challenge,
              attestation: {
                credentialId: vector.credentialId,
                clientDataJson: vector.clientDataJson,
                attestationObject: vector.attestationObject,
                transports: [],
              },
            },
          ],
        },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const [rendered] = (await root.getAuthenticators({ organizationId, userId: rootUserId })).authenticators;
      expect(rendered?.credentialId).toBe(Buffer.from(vector.credentialId, "base64url").toString("base64url"));
      if (vector.expected) expect(rendered?.attestationType).toBe(vector.expected.attestationType);
    });
  }
});

describe("passkeys of root users", () => {
  it("registers root passkeys at the host bootstrap", async () => {
    const { engine } = await engineWithOrganization();
    const authenticator = new SoftwareAuthenticator();
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Passkey org",
      rootUsers: [{ userName: "owner", authenticators: [passkeyParams(authenticator)] }],
    });
    const owner = engine.as({ userId: rootUserIds[0] as string });
    const { authenticators } = await owner.getAuthenticators({ organizationId, userId: rootUserIds[0] as string });
    expect(authenticators.map((a) => a.credentialId)).toEqual([authenticator.credentialIdBase64Url]);
    await refusal(
      engine.createOrganization({
        organizationName: "Bad passkey",
        rootUsers: [
          { userName: "owner", authenticators: [passkeyParams(authenticator, { origin: "https://evil.example" })] },
        ],
      }),
      "INVALID_ARGUMENT",
      "rootUsers[0].authenticators[0].attestation.clientDataJson",
    );
  });

  it("registers root passkeys of a sub-organization, under the parent's origins", async () => {
    const { root, organizationId } = await engineWithOrganization({
      webauthn: { rpId: "wallet.example", origins: ["https://wallet.example", "https://app.wallet.example"] },
    });
    const authenticator = new SoftwareAuthenticator();
    const rootUser = (params: ReturnType<typeof passkeyParams>) => ({
      subOrganizationName: "End user",
      rootUsers: [{ userName: "end user", apiKeys: [], authenticators: [params], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: rootUser(
        passkeyParams(authenticator, { rpId: "wallet.example", origin: "https://app.wallet.example" }),
      ),
    });
    const { subOrganizationId, rootUserIds } = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const { user } = await root.getUser({ organizationId: subOrganizationId, userId: rootUserIds[0] as string });
    expect(user.authenticators).toMatchObject([{ credentialId: authenticator.credentialIdBase64Url }]);
    await refusal(
      root.createSubOrganization({
        organizationId,
        parameters: rootUser(
          passkeyParams(new SoftwareAuthenticator(), { rpId: "wallet.example", origin: "http://localhost" }),
        ),
      }),
      "INVALID_ARGUMENT",
      "parameters.rootUsers[0].authenticators[0].attestation.clientDataJson",
    );
  });
});

describe("allowed origins from FEATURE_NAME_WEBAUTHN_ORIGINS", () => {
  it("takes the organization's origins, which its sub-organizations inherit", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    await root.setOrganizationFeature({
      organizationId,
      parameters: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "https://app.example, https://m.app.example" },
    });
    const register = (origin: string) =>
      root.createAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticators: [passkeyParams(new SoftwareAuthenticator(), { origin })] },
      });
    expect((await register("https://m.app.example")).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const error = await refusal(
      register("http://localhost"),
      "INVALID_ARGUMENT",
      `${FIELD}.attestation.clientDataJson`,
    );
    expect(error.details.reason).toBe("ORIGIN_NOT_ALLOWED");
    const sub = await root.createSubOrganization({
      organizationId,
      parameters: {
        subOrganizationName: "Inherits origins",
        rootUsers: [
          {
            userName: "end user",
            apiKeys: [],
            authenticators: [passkeyParams(new SoftwareAuthenticator(), { origin: "https://app.example" })],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
      },
    });
    expect(sub.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(1);
  });
});

describe("delete_authenticators", () => {
  it("deletes a user's passkeys and refuses another user's", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const created = await root.createAuthenticators({
      organizationId,
      parameters: {
        userId: rootUserId,
        authenticators: [passkeyParams(new SoftwareAuthenticator()), passkeyParams(new SoftwareAuthenticator())],
      },
    });
    const ids = (created.activity.result!.createAuthenticatorsResult as { authenticatorIds: string[] })
      .authenticatorIds;
    const other = await root.createUsers({
      organizationId,
      parameters: {
        users: [
          {
            userName: "other",
            apiKeys: [],
            authenticators: [passkeyParams(new SoftwareAuthenticator())],
            oauthProviders: [],
            userTags: [],
          },
        ],
      },
    });
    const [otherId] = (other.activity.result!.createUsersResult as { userIds: string[] }).userIds;
    const [theirs] = (await root.getAuthenticators({ organizationId, userId: otherId as string })).authenticators;
    await refusal(
      root.deleteAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticatorIds: [ids[0] as string, theirs?.authenticatorId as string] },
      }),
      "NOT_FOUND",
      "parameters.authenticatorIds[1]",
    );
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(2);
    const { activity } = await root.deleteAuthenticators({
      organizationId,
      parameters: { userId: rootUserId, authenticatorIds: [ids[0] as string] },
    });
    expect(activity.result).toEqual({ deleteAuthenticatorsResult: { authenticatorIds: [ids[0]] } });
    await refusal(root.getAuthenticator({ organizationId, authenticatorId: ids[0] as string }), "NOT_FOUND");
    expect(await passkeyCount(root, organizationId, rootUserId)).toBe(1);
  });
});
