/**
 * A NUL character (U+0000) in ids and names, which PostgreSQL text cannot hold: an unauthenticated `whoami`
 * naming such an organization, a stamp whose public key holds one, and signed requests with one in an id, a
 * name or a page cursor. Each must be refused (400 naming the field, or 401 for the stamp), never 500, alike on
 * the run's file store and, when `CUSTODIAN_PG_URL` names a server, on a dev server over PostgreSQL.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateP256KeyPair } from "@turnkey/crypto";
import pg from "pg";
import { encodeBase64Url } from "../../src/crypto/bytes.js";
import {
  type ApiKey,
  check,
  credentials,
  figure,
  raw,
  stampHeader,
  startServer,
  stopServer,
  type Target,
} from "./harness.js";

const NUL = "\u0000";

interface Case {
  name: string;
  path: string;
  body: (organizationId: string) => Record<string, unknown>;
  /** Who stamps it: the root key (default), a key nobody registered, nobody, or a stamp naming a NUL key. */
  stamp?: "stranger" | "none" | "nul-public-key";
  status: number;
  field?: string;
}

const CASES: Case[] = [
  {
    name: "an unauthenticated whoami naming an organization with a NUL",
    path: "query/whoami",
    body: () => ({ organizationId: `org${NUL}` }),
    stamp: "stranger",
    status: 400,
    field: "organizationId",
  },
  {
    name: "an unstamped whoami naming an organization with a NUL",
    path: "query/whoami",
    body: () => ({ organizationId: NUL }),
    stamp: "none",
    status: 400,
    field: "organizationId",
  },
  {
    name: "a stamp whose public key holds a NUL",
    path: "query/whoami",
    body: (organizationId) => ({ organizationId }),
    stamp: "nul-public-key",
    status: 401,
  },
  {
    name: "a wallet id with a NUL",
    path: "query/get_wallet",
    body: (organizationId) => ({ organizationId, walletId: `w${NUL}` }),
    status: 400,
    field: "walletId",
  },
  {
    name: "a page cursor with a NUL",
    path: "query/list_activities",
    body: (organizationId) => ({ organizationId, paginationOptions: { after: NUL } }),
    status: 400,
    field: "paginationOptions.after",
  },
  {
    name: "a wallet name with a NUL",
    path: "submit/create_wallet",
    body: (organizationId) => ({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { walletName: `w${NUL}`, accounts: [] },
    }),
    status: 400,
    field: "parameters.walletName",
  },
];

async function headersFor(request: Case, root: ApiKey, body: string): Promise<Record<string, string>> {
  if (request.stamp === "none") return {};
  if (request.stamp === "nul-public-key") {
    const stamp = { publicKey: `02${NUL}`, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature: "00" };
    return { "X-Stamp": encodeBase64Url(new TextEncoder().encode(JSON.stringify(stamp))) };
  }
  if (request.stamp === "stranger") {
    const { publicKey, privateKey } = generateP256KeyPair();
    return stampHeader({ publicKey, privateKey }, body);
  }
  return stampHeader(root, body);
}

/** Sends every case to the server at `baseUrl`, and prints how many were answered as expected. */
async function attack(store: string, baseUrl: string, root: ApiKey, organizationId: string): Promise<void> {
  let held = 0;
  for (const request of CASES) {
    const body = JSON.stringify(request.body(organizationId));
    const answer = await raw(`${baseUrl}/public/v1/${request.path}`, body, await headersFor(request, root, body));
    const detail = (JSON.parse(answer.text) as { details?: { field?: string }[] }).details?.find(
      (d) => d.field !== undefined,
    );
    const ok = answer.status === request.status && detail?.field === request.field;
    if (ok) held++;
    check(
      `${store}: ${request.name} is refused (${request.status})`,
      ok,
      `${answer.status} ${answer.text.slice(0, 200)}`,
    );
  }
  figure(`NUL characters, ${store}: requests refused as expected`, held, `of ${CASES.length}`);
}

export async function nulCharacters({ server: target, root, organizationId }: Target) {
  await attack("file store", target.baseUrl, root, organizationId);
  const url = process.env.CUSTODIAN_PG_URL;
  if (!url) {
    console.log("NUL characters on PostgreSQL: skipped (no CUSTODIAN_PG_URL)");
    return;
  }
  const directory = mkdtempSync(join(tmpdir(), "custodian-adversarial-nul-"));
  const schema = `adversarial_nul_${randomBytes(6).toString("hex")}`;
  const server = await startServer({ directory, args: ["--postgres", url, "--postgres-schema", schema] });
  try {
    const creds = credentials(directory);
    await attack(
      "PostgreSQL",
      server.baseUrl,
      { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey },
      creds.organizationId,
    );
  } finally {
    await stopServer(server);
    rmSync(directory, { recursive: true, force: true });
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}
