/**
 * Replays WebAuthn ceremonies recorded from a real browser (Chromium's virtual authenticator, driven over
 * CDP by scripts/record-chromium-webauthn.ts): its registrations through `create_authenticators` and the
 * host bootstrap, and the `X-Stamp-Webauthn` stamps @turnkey/webauthn-stamper built from its assertions,
 * sent over the HTTP adapter. Tampered and replayed stamps are refused.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodyEngine, CustodyError } from "../../src/index.js";
import { engineWithOrganization } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";
import type { AuthenticatorTransport } from "../support/signers.js";

interface Registration {
  name: string;
  challenge: string;
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: AuthenticatorTransport[];
  fmt: string;
  reason?: string;
}

const vectors = JSON.parse(
  readFileSync(new URL("../vectors/webauthn/chromium-virtual-authenticator.json", import.meta.url), "utf8"),
) as {
  browser: string;
  engine: {
    clockMs: number;
    rpId: string;
    origin: string;
    organizationId: string;
    rootUserId: string;
    registration: string;
  };
  registrations: Registration[];
  refusedRegistrations: Registration[];
  requests: { path: string; body: string; stamp: string }[];
};

const webauthn = { rpId: vectors.engine.rpId, origins: [vectors.engine.origin] };

function authenticatorParams(registration: Registration) {
  return {
    authenticatorName: registration.name,
    challenge: registration.challenge,
    attestation: {
      credentialId: registration.credentialId,
      clientDataJson: registration.clientDataJson,
      attestationObject: registration.attestationObject,
      transports: registration.transports,
    },
  };
}

describe(`registrations recorded from ${vectors.browser}`, () => {
  for (const registration of vectors.registrations) {
    it(`registers: ${registration.name}`, async () => {
      const { root, organizationId, rootUserId } = await engineWithOrganization({ webauthn });
      await root.createAuthenticators({
        organizationId,
        parameters: { userId: rootUserId, authenticators: [authenticatorParams(registration)] },
      });
      const [stored] = (await root.getAuthenticators({ organizationId, userId: rootUserId })).authenticators;
      expect(stored).toMatchObject({
        credentialId: registration.credentialId,
        attestationType: "none",
        transports: registration.transports,
        credential: { type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" },
      });
    });
  }

  for (const registration of vectors.refusedRegistrations) {
    it(`refuses (${registration.fmt}): ${registration.name}`, async () => {
      const { root, organizationId, rootUserId } = await engineWithOrganization({ webauthn });
      const error = await root
        .createAuthenticators({
          organizationId,
          parameters: { userId: rootUserId, authenticators: [authenticatorParams(registration)] },
        })
        .then(
          () => undefined,
          (e: unknown) => e as CustodyError,
        );
      expect(error).toBeInstanceOf(CustodyError);
      expect(error?.details).toMatchObject({
        field: "parameters.authenticators[0].attestation.attestationObject",
        reason: registration.reason,
      });
      expect((await root.getAuthenticators({ organizationId, userId: rootUserId })).authenticators).toEqual([]);
    });
  }
});

describe(`X-Stamp-Webauthn stamps signed by ${vectors.browser}`, () => {
  let server: RunningServer;
  const send = (request: { path: string; body: string; stamp: string }) =>
    post(`${server.baseUrl}${request.path}`, request.body, { "X-Stamp-Webauthn": request.stamp });
  const reasonOf = (json: Record<string, unknown> | undefined) =>
    (json?.details as { turnkeyErrorCode?: string }[] | undefined)?.[0]?.turnkeyErrorCode;

  beforeAll(async () => {
    // The recording's engine: the same fixed clock and all-zero randomness give the same ids.
    const engine = new CustodyEngine({
      clock: () => vectors.engine.clockMs,
      random: (length) => new Uint8Array(length),
      keyEncryptionKey: new Uint8Array(32),
      webauthn,
    });
    const registration = vectors.registrations.find((candidate) => candidate.name === vectors.engine.registration);
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Chromium recording",
      rootUsers: [
        {
          userName: "chromium user",
          authenticators: [
            { ...authenticatorParams(registration as Registration), authenticatorName: "chromium passkey" },
          ],
        },
      ],
    });
    expect(
      { organizationId, rootUserId: rootUserIds[0] },
      "the engine no longer derives the recorded ids: re-run scripts/record-chromium-webauthn.ts",
    ).toEqual({ organizationId: vectors.engine.organizationId, rootUserId: vectors.engine.rootUserId });
    server = await serve(engine);
  });

  afterAll(async () => {
    expect(server.errors).toEqual([]);
    await server.close();
  });

  it("refuses a recorded stamp over a tampered body or with a tampered signature", async () => {
    const [whoami] = vectors.requests;
    const tamperedBody = await send({ ...(whoami as (typeof vectors.requests)[0]), body: `${whoami?.body} ` });
    expect(tamperedBody.status).toBe(401);
    expect(reasonOf(tamperedBody.json)).toBe("CHALLENGE_MISMATCH");
    const stamp = JSON.parse(whoami?.stamp as string) as Record<string, string>;
    const signature = Buffer.from(stamp.signature as string, "base64url");
    signature[10] = (signature[10] as number) ^ 0x80;
    const forged = JSON.stringify({ ...stamp, signature: signature.toString("base64url") });
    const tamperedSignature = await send({ ...(whoami as (typeof vectors.requests)[0]), stamp: forged });
    expect(tamperedSignature.status).toBe(401);
    expect(reasonOf(tamperedSignature.json)).toBe("SIGNATURE_INVALID");
  });

  it("accepts the recorded requests in order, then refuses each replayed", async () => {
    const [whoami, createTag, getUser] = vectors.requests;
    const who = await send(whoami as (typeof vectors.requests)[0]);
    expect(who.status).toBe(200);
    expect(who.json).toMatchObject({
      organizationId: vectors.engine.organizationId,
      userId: vectors.engine.rootUserId,
    });

    const tagged = await send(createTag as (typeof vectors.requests)[0]);
    expect(tagged.status).toBe(200);
    const activity = tagged.json?.activity as {
      status: string;
      votes: { scheme: string; publicKey: string }[];
      result: unknown;
    };
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.votes[0]).toMatchObject({ scheme: "SIGNATURE_SCHEME_TK_WEBAUTHN" });

    const user = await send(getUser as (typeof vectors.requests)[0]);
    expect(user.status).toBe(200);
    const { userTagId } = (activity.result as { createUserTagResult: { userTagId: string } }).createUserTagResult;
    expect(user.json).toMatchObject({ user: { userName: "chromium user", userTags: [userTagId] } });

    for (const request of vectors.requests) {
      const replayed = await send(request);
      expect(replayed.status).toBe(401);
      expect(reasonOf(replayed.json)).toBe("SIGN_COUNT_REGRESSION");
    }
  });
});
