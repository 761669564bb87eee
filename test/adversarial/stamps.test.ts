/**
 * Stamps under attack, over HTTP: a stamp moved to another body, a stamp with a high-S (malleated)
 * signature, and a replayed request. High-S is accepted on purpose: the official stampers that sign with
 * Node's crypto or WebCrypto do not normalize S, so refusing it would refuse about half of their requests;
 * a malleated stamp still covers the same body, whose fingerprint makes it the same activity.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { post, type RunningServer, serve } from "../support/server.js";

let server: RunningServer;
let organizationId: string;
let rootKey: ApiKeyPair;
let root: Awaited<ReturnType<typeof engineWithOrganization>>["root"];

beforeAll(async () => {
  const fixture = await engineWithOrganization();
  ({ organizationId, rootKey, root } = fixture);
  server = await serve(fixture.engine);
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

async function stamped(body: string): Promise<{ publicKey: string; scheme: string; signature: string }> {
  const stamper = new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey });
  const { stampHeaderValue } = await stamper.stamp(body);
  return JSON.parse(Buffer.from(stampHeaderValue, "base64url").toString("utf8"));
}

const header = (stamp: object) => ({ "X-Stamp": Buffer.from(JSON.stringify(stamp)).toString("base64url") });

function walletBody(name: string): string {
  return JSON.stringify({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletName: name, accounts: [] },
  });
}

async function walletCount(): Promise<number> {
  return (await root.getWallets({ organizationId })).wallets.length;
}

describe("stamps", () => {
  it("refuses a stamp moved to another body, storing nothing", async () => {
    const before = await walletCount();
    const stamp = await stamped(walletBody("signed"));
    const response = await post(
      `${server.baseUrl}/public/v1/submit/create_wallet`,
      walletBody("swapped"),
      header(stamp),
    );
    expect(response.status).toBe(401);
    expect(await walletCount()).toBe(before);
  });

  it("answers a replayed request with the same activity, running nothing twice", async () => {
    const body = walletBody("once");
    const stamp = await stamped(body);
    const url = `${server.baseUrl}/public/v1/submit/create_wallet`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(url, body, header(stamp))));
    const ids = new Set(responses.map((r) => (r.json!.activity as { id: string }).id));
    expect(ids.size).toBe(1);
    expect((await root.getWallets({ organizationId })).wallets.filter((w) => w.walletName === "once")).toHaveLength(1);
  });

  it("accepts a high-S twin of a stamp as the same activity", async () => {
    const body = walletBody("malleated");
    const stamp = await stamped(body);
    const signature = p256.Signature.fromBytes(hexToBytes(stamp.signature), "der");
    const order = p256.Point.Fn.ORDER;
    const twin = new p256.Signature(signature.r, order - signature.s);
    expect(twin.hasHighS()).not.toBe(signature.hasHighS());
    const url = `${server.baseUrl}/public/v1/submit/create_wallet`;
    const first = await post(url, body, header(stamp));
    const second = await post(url, body, header({ ...stamp, signature: bytesToHex(twin.toBytes("der")) }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((second.json!.activity as { id: string }).id).toBe((first.json!.activity as { id: string }).id);
  });
});
