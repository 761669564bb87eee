/**
 * The request lifetime as @turnkey/http's TurnkeyClient meets it: one hour and five minutes ahead by
 * default (Turnkey's FAQ), an engine option for teams that follow the offline-signing example's 24 hours,
 * and refusals that name the window in force. Nothing is stored for a refused request.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { walletParameters } from "../support/consensus.js";
import { type ApiKeyPair, engineWithOrganization } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";
import { requestRejection as rejection } from "../support/session-client.js";

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 1, 12);

interface Fixture {
  server: RunningServer;
  organizationId: string;
  rootKey: ApiKeyPair;
}

const fixtures: Fixture[] = [];

async function fixture(options: { maxRequestAgeMs?: number; maxClockSkewMs?: number } = {}): Promise<Fixture> {
  const { engine, organizationId, rootKey } = await engineWithOrganization({ clock: () => NOW, ...options });
  const made = { server: await serve(engine), organizationId, rootKey };
  fixtures.push(made);
  return made;
}

function client({ server, rootKey }: Fixture) {
  return new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey }),
  );
}

function createWallet(f: Fixture, timestampMs: number, walletName: string) {
  return client(f).createWallet({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(timestampMs),
    organizationId: f.organizationId,
    parameters: walletParameters(walletName),
  });
}

async function walletCount(f: Fixture): Promise<number> {
  return (await client(f).getWallets({ organizationId: f.organizationId })).wallets.length;
}

afterAll(async () => {
  for (const { server } of fixtures) {
    expect(server.errors).toEqual([]);
    await server.close();
  }
});

describe("request lifetime", () => {
  let standard: Fixture;
  beforeAll(async () => {
    standard = await fixture();
  });

  it("accepts a request 59 minutes old and refuses one 2 hours old, naming the one-hour window", async () => {
    const accepted = await createWallet(standard, NOW - 59 * 60 * 1000, "fresh");
    expect(accepted.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const before = await walletCount(standard);
    const error = await rejection(createWallet(standard, NOW - 2 * HOUR, "stale"));
    expect(error.code).toBe(3);
    expect(error.message).toContain("timestampMs is too old: a signed request is valid for 1 hour");
    expect(await walletCount(standard)).toBe(before);
  });

  it("refuses a request 10 minutes ahead, naming the five-minute skew", async () => {
    const error = await rejection(createWallet(standard, NOW + 10 * 60 * 1000, "ahead"));
    expect(error.code).toBe(3);
    expect(error.message).toContain("(more than 5 minutes ahead)");
  });

  it("takes the offline-signing example's 24 hours as an engine option, and says so when refusing", async () => {
    const offline = await fixture({ maxRequestAgeMs: 24 * HOUR, maxClockSkewMs: 10 * 60 * 1000 });
    for (const [age, name] of [
      [2 * HOUR, "two hours old"],
      [23 * HOUR, "23 hours old"],
    ] as const) {
      expect((await createWallet(offline, NOW - age, name)).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    }
    expect((await createWallet(offline, NOW + 9 * 60 * 1000, "ahead")).activity.status).toBe(
      "ACTIVITY_STATUS_COMPLETED",
    );
    const before = await walletCount(offline);
    const stale = await rejection(createWallet(offline, NOW - 25 * HOUR, "too old"));
    expect(stale.message).toContain("a signed request is valid for 24 hours");
    const ahead = await rejection(createWallet(offline, NOW + 11 * 60 * 1000, "too far ahead"));
    expect(ahead.message).toContain("(more than 10 minutes ahead)");
    expect(await walletCount(offline)).toBe(before);
  });

  it("refuses a window that is not a positive whole number of milliseconds", async () => {
    for (const maxRequestAgeMs of [0, -1, 1.5, Number.NaN]) {
      const error = await engineWithOrganization({ maxRequestAgeMs }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CustodyError);
      expect((error as CustodyError).field).toBe("maxRequestAgeMs");
    }
  });
});
