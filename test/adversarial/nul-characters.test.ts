/**
 * A NUL character (U+0000) in an id, a name or another string that names stored things: PostgreSQL text cannot
 * hold it, and a query carrying one used to fail inside the server (500, a stack in the log), even for an
 * unauthenticated `whoami`. Each such request is refused as INVALID_ARGUMENT naming the field before any store is
 * asked, and a stamp whose public key holds one is an unknown credential, with the same answers on the memory
 * store and on PostgreSQL, no unexpected error, and nothing recorded.
 */
import { randomBytes } from "node:crypto";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeBase64Url } from "../../src/crypto/bytes.js";
import type { CustodyEngine } from "../../src/index.js";
import { MemoryStore } from "../../src/storage/memory.js";
import { type ApiKeyPair, engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { openTestStore, postgresKind } from "../support/postgres.js";
import { post, type RunningServer, serve } from "../support/server.js";

const NUL = "\u0000";

interface Target {
  engine: CustodyEngine;
  server: RunningServer;
  organizationId: string;
  rootKey: ApiKeyPair;
  rootUserId: string;
  /** The organization's activities before the attack. */
  activities: number;
}

interface Answer {
  status: number;
  code: unknown;
  field: unknown;
}

/** A request: its path, its body for an organization, and whom it is stamped by (the root key unless given). */
interface Case {
  name: string;
  path: string;
  body: (organizationId: string) => Record<string, unknown>;
  stamp?: "none" | "stranger" | "nul-public-key";
  expected: { status: number; field?: string };
}

const submit = (type: string, parameters: Record<string, unknown>) => (organizationId: string) => ({
  type,
  timestampMs: String(Date.now()),
  organizationId,
  parameters,
});

const CASES: Case[] = [
  {
    name: "whoami naming an organization with a NUL, by a key nobody registered",
    path: "query/whoami",
    body: () => ({ organizationId: `org${NUL}` }),
    stamp: "stranger",
    expected: { status: 400, field: "organizationId" },
  },
  {
    name: "whoami naming an organization with a NUL, without a stamp",
    path: "query/whoami",
    body: () => ({ organizationId: NUL }),
    stamp: "none",
    expected: { status: 400, field: "organizationId" },
  },
  {
    name: "a stamp whose public key holds a NUL",
    path: "query/whoami",
    body: (organizationId) => ({ organizationId }),
    stamp: "nul-public-key",
    expected: { status: 401 },
  },
  {
    name: "get_wallet of a wallet id with a NUL",
    path: "query/get_wallet",
    body: (organizationId) => ({ organizationId, walletId: `w${NUL}` }),
    expected: { status: 400, field: "walletId" },
  },
  {
    name: "get_activity of an activity id with a NUL",
    path: "query/get_activity",
    body: (organizationId) => ({ organizationId, activityId: NUL }),
    expected: { status: 400, field: "activityId" },
  },
  {
    name: "get_activities with a NUL in its page cursor",
    path: "query/list_activities",
    body: (organizationId) => ({ organizationId, paginationOptions: { after: `a${NUL}` } }),
    expected: { status: 400, field: "paginationOptions.after" },
  },
  {
    name: "list_suborgs filtered by a value with a NUL",
    path: "query/list_suborgs",
    body: (organizationId) => ({ organizationId, filterType: "EMAIL", filterValue: `a${NUL}@acme.test` }),
    expected: { status: 400, field: "filterValue" },
  },
  {
    name: "create_wallet named with a NUL",
    path: "submit/create_wallet",
    body: submit("ACTIVITY_TYPE_CREATE_WALLET", { walletName: `w${NUL}`, accounts: [] }),
    expected: { status: 400, field: "parameters.walletName" },
  },
  {
    name: "create_user_tag named with a NUL",
    path: "submit/create_user_tag",
    body: submit("ACTIVITY_TYPE_CREATE_USER_TAG", { userTagName: NUL, userIds: [] }),
    expected: { status: 400, field: "parameters.userTagName" },
  },
  {
    name: "update_user to an email with a NUL",
    path: "submit/update_user",
    body: submit("ACTIVITY_TYPE_UPDATE_USER", { userId: "u", userEmail: `a${NUL}@acme.test` }),
    expected: { status: 400, field: "parameters.userEmail" },
  },
  {
    name: "sign_raw_payload with a signer named with a NUL",
    path: "submit/sign_raw_payload",
    body: submit("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", {
      signWith: `0x${NUL}`,
      payload: "00",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    }),
    expected: { status: 400, field: "parameters.signWith" },
  },
  {
    name: "approve_activity of a fingerprint with a NUL",
    path: "submit/approve_activity",
    body: submit("ACTIVITY_TYPE_APPROVE_ACTIVITY", { fingerprint: `sha256:${NUL}` }),
    expected: { status: 400, field: "parameters.fingerprint" },
  },
];

async function stampHeaders(key: ApiKeyPair | undefined, body: string, nulPublicKey = false) {
  if (nulPublicKey) {
    const stamp = { publicKey: `02${NUL}`, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature: "00" };
    return { "X-Stamp": encodeBase64Url(new TextEncoder().encode(JSON.stringify(stamp))) };
  }
  if (key === undefined) return {};
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  return { [stampHeaderName]: stampHeaderValue };
}

async function ask(target: Target, request: Case): Promise<Answer> {
  const body = JSON.stringify(request.body(target.organizationId));
  const key = request.stamp === "stranger" ? p256KeyPair() : request.stamp === "none" ? undefined : target.rootKey;
  const headers = await stampHeaders(key, body, request.stamp === "nul-public-key");
  const response = await post(`${target.server.baseUrl}/public/v1/${request.path}`, body, headers);
  const detail = (response.json?.details as { code?: unknown; field?: unknown; "@type": string }[] | undefined)?.find(
    (d) => d["@type"].endsWith("custodian.v1.ErrorDetail"),
  );
  return { status: response.status, code: detail?.code, field: detail?.field };
}

async function activityCount(target: Pick<Target, "engine" | "organizationId">, userId: string): Promise<number> {
  const { activities } = await target.engine.as({ userId }).getActivities({ organizationId: target.organizationId });
  return activities.length;
}

async function start(store: MemoryStore | Awaited<ReturnType<typeof openTestStore>>): Promise<Target> {
  const fixture = await engineWithOrganization({ store, keyEncryptionKey: randomBytes(32) });
  const { engine, organizationId, rootKey, rootUserId } = fixture;
  const activities = await activityCount(fixture, rootUserId);
  return { engine, server: await serve(engine), organizationId, rootKey, activities, rootUserId };
}

const targets: Record<string, Target> = {};

beforeAll(async () => {
  targets.memory = await start(new MemoryStore());
  targets.postgres = await start(await openTestStore());
}, 60_000);
afterAll(async () => {
  for (const target of Object.values(targets)) {
    await target.server.close();
    await target.engine.close();
  }
});

describe(`a NUL in what names stored things (memory and PostgreSQL on ${postgresKind})`, () => {
  for (const request of CASES) {
    it(`refuses ${request.name} alike on every store`, async () => {
      const answers = {
        memory: await ask(targets.memory as Target, request),
        postgres: await ask(targets.postgres as Target, request),
      };
      const expected = request.expected.status === 400 ? "INVALID_ARGUMENT" : "UNAUTHENTICATED";
      expect(answers.memory).toEqual({
        status: request.expected.status,
        code: expected,
        field: request.expected.field,
      });
      expect(answers.postgres).toEqual(answers.memory);
      for (const target of Object.values(targets)) expect(target.server.errors).toEqual([]);
    });
  }

  it("records nothing for any of them", async () => {
    for (const target of Object.values(targets)) {
      expect(await activityCount(target, target.rootUserId)).toBe(target.activities);
    }
  });
});
