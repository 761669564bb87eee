/**
 * The webhook signing key: the host's, or generated once and kept sealed in the store; published as a
 * JWKS whose key id is the RFC 7638 thumbprint; signing the contract's input so `@turnkey/crypto` verifies.
 */
import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { calculateJwkThumbprint } from "jose";
import { describe, expect, it } from "vitest";
import { createSealer } from "../../src/crypto/seal/index.js";
import { CustodyEngine, CustodyError, MemoryStore } from "../../src/index.js";
import { deliveryHeaders } from "../../src/webhooks/headers.js";
import { WebhookSigner } from "../../src/webhooks/signer.js";
import { verificationKeys } from "./receiver.js";

describe("the webhook JWKS", () => {
  it("publishes one Ed25519 key in the documented shape, its kid the RFC 7638 thumbprint", async () => {
    const jwks = await new CustodyEngine().webhookJwks();
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toEqual({
      kid: expect.any(String),
      kty: "OKP",
      crv: "Ed25519",
      alg: "EdDSA",
      use: "sig",
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      turnkey_signature_algorithm: "ed25519",
      turnkey_signature_version: "v1",
    });
    expect(key!.kid).toBe(await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: key!.x }));
  });

  it("uses the host's key when given one", async () => {
    const secret = randomBytes(32);
    const jwks = await new CustodyEngine({ webhookSigningKey: secret }).webhookJwks();
    expect(Buffer.from(jwks.keys[0]!.x, "base64url").toString("hex")).toBe(bytesToHex(ed25519.getPublicKey(secret)));
  });

  it("refuses a host key that is not 32 bytes, naming the option", () => {
    let error: unknown;
    try {
      new CustodyEngine({ webhookSigningKey: new Uint8Array(31) });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe("INVALID_ARGUMENT");
    expect((error as CustodyError).details.field).toBe("webhookSigningKey");
  });

  it("generates the key once and keeps it sealed in the store, so another engine on the store signs alike", async () => {
    const store = new MemoryStore();
    const keyEncryptionKey = randomBytes(32);
    const first = await new CustodyEngine({ store, keyEncryptionKey }).webhookJwks();
    const second = await new CustodyEngine({ store, keyEncryptionKey }).webhookJwks();
    expect(second).toEqual(first);

    const secret = await store.read(async (reader) => {
      const dataKey = (await reader.get("meta", "sealing.dataKey")) as unknown as { value: string };
      const sealed = (await reader.get("meta", "webhooks.signingKey")) as unknown as { value: string };
      expect(sealed.value).not.toMatch(/^[0-9a-f]{64}$/);
      return createSealer({ keyEncryptionKey, wrappedDataKey: dataKey.value }).open(
        sealed.value,
        "engine:webhookSigningKey",
      );
    });
    expect(Buffer.from(ed25519.getPublicKey(secret)).toString("base64url")).toBe(first.keys[0]!.x);
  });
});

describe("signing one attempt", () => {
  const signer = new WebhookSigner(randomBytes(32), (length) => randomBytes(length));
  const delivery = { id: "01a2-event", organizationId: "org-1", eventType: "ACTIVITY_UPDATES" };
  const body = new TextEncoder().encode('{"id":"activity-1","status":"ACTIVITY_STATUS_COMPLETED"}');

  it("signs v1.ed25519.<keyId>.<timestampMs>.<eventId>. followed by the body bytes", () => {
    const now = Date.now();
    const headers = deliveryHeaders(signer, delivery, body, now);
    const prefix = `v1.ed25519.${signer.keyId()}.${now}.${delivery.id}.`;
    const signedInput = new Uint8Array([...new TextEncoder().encode(prefix), ...body]);
    expect(
      ed25519.verify(
        Buffer.from(headers["X-Turnkey-Signature"]!, "hex"),
        signedInput,
        Buffer.from(signer.publicKeyHex(), "hex"),
      ),
    ).toBe(true);
    const verified = verifyTurnkeyWebhookSignature({
      headers,
      body,
      verificationKeys: verificationKeys(signer.jwks()),
      maxTimestampAgeMs: 300_000,
      nowMs: now,
    });
    expect(verified).toEqual({ ok: true, eventId: delivery.id, keyId: signer.keyId(), timestampMs: now });
  });

  it("fails verification for a changed body, event id or timestamp, and for a stale timestamp", () => {
    const now = Date.now();
    const headers = deliveryHeaders(signer, delivery, body, now);
    const keys = verificationKeys(signer.jwks());
    const check = (changed: Record<string, string>, changedBody = body, nowMs = now) =>
      verifyTurnkeyWebhookSignature({
        headers: changed,
        body: changedBody,
        verificationKeys: keys,
        maxTimestampAgeMs: 300_000,
        nowMs,
      });
    expect(check(headers, new TextEncoder().encode('{"id":"activity-2"}'))).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
    expect(check({ ...headers, "X-Turnkey-Event-Id": "other" })).toEqual({ ok: false, reason: "invalid_signature" });
    expect(check({ ...headers, "X-Turnkey-Timestamp": String(now + 1) })).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
    expect(check(headers, body, now + 300_001)).toEqual({ ok: false, reason: "stale_timestamp" });
  });
});
