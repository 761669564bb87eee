/**
 * Two dev servers, two processes, one PostgreSQL schema: hammered at once with conflicting activities, then
 * one is killed with SIGKILL mid-load. What must hold: one consistent state (no duplicate, no lost update),
 * one activity for one body whichever server it reached, a policy change seen by both servers at once, and
 * every activity a client was told COMPLETED still there after the kill. Runs on the machine's server
 * (CUSTODIAN_PG_URL, else postgres://postgres@127.0.0.1:5432/test) and is skipped when none answers.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type DevCredentials, startDevServer } from "../support/dev-server.js";
import { p256KeyPair } from "../support/engine.js";

const url = process.env.CUSTODIAN_PG_URL || "postgres://postgres@127.0.0.1:5432/test";

async function reachable(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const serverUp = await reachable(url);

interface Key {
  apiPublicKey: string;
  apiPrivateKey: string;
}

interface Answer {
  status: number;
  json: { activity?: { id: string; status: string; result?: Record<string, Record<string, unknown>> } } & Record<
    string,
    unknown
  >;
}

let clock = Date.now();
/** A fresh timestampMs (strictly increasing: two bodies never collide unless a test means them to). */
const timestamp = () => {
  clock = Math.max(Date.now(), clock + 1);
  return String(clock);
};

/** POSTs an exact body, stamped with `key`, as any Turnkey client would. */
async function post(baseUrl: string, path: string, body: string, key: Key): Promise<Answer> {
  const { stampHeaderValue } = await new ApiKeyStamper(key).stamp(body);
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Stamp": stampHeaderValue },
    body,
  });
  return { status: response.status, json: (await response.json()) as Answer["json"] };
}

function activityBody(type: string, organizationId: string, parameters: unknown): string {
  return JSON.stringify({ type, timestampMs: timestamp(), organizationId, parameters });
}

const ETHEREUM_ACCOUNT = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
};

describe("two dev servers in two processes behind one PostgreSQL schema", () => {
  it.runIf(serverUp)(
    "stay consistent under conflicting load, and lose nothing acknowledged when one is killed",
    async () => {
      const data = mkdtempSync(join(tmpdir(), "custodian-instances-"));
      const schema = `instances_${randomBytes(6).toString("hex")}`;
      const args = ["--port", "0", "--data", data, "--postgres", url, "--postgres-schema", schema, "--quiet"];
      const first = startDevServer(args);
      const servers = [first];
      try {
        const a = await first.ready;
        // Started after the first: it finds the organization, the keys and the credentials the first made.
        const second = startDevServer(args);
        servers.push(second);
        const b = await second.ready;
        const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as DevCredentials;
        const org = credentials.organizationId;
        const root: Key = { apiPublicKey: credentials.apiPublicKey, apiPrivateKey: credentials.apiPrivateKey };
        const submit = (baseUrl: string, path: string, type: string, parameters: unknown, key = root) =>
          post(baseUrl, `/public/v1/submit/${path}`, activityBody(type, org, parameters), key);
        const query = (baseUrl: string, path: string, body: unknown) =>
          post(baseUrl, `/public/v1/query/${path}`, JSON.stringify(body), root);
        const completed = (answer: Answer) => answer.json.activity?.status === "ACTIVITY_STATUS_COMPLETED";

        // --- Setup: a tag, a wallet, a non-root user whom a policy lets sign.
        const tag = await submit(a, "create_user_tag", "ACTIVITY_TYPE_CREATE_USER_TAG", {
          userTagName: "tag-0",
          userIds: [],
        });
        const tagId = tag.json.activity?.result?.createUserTagResult?.userTagId as string;
        const wallet = await submit(b, "create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", {
          walletName: "shared",
          accounts: [{ ...ETHEREUM_ACCOUNT, path: "m/44'/60'/0'/0/0" }],
        });
        const walletResult = wallet.json.activity?.result?.createWalletResult as {
          walletId: string;
          addresses: string[];
        };
        const signerPair = p256KeyPair();
        const signer: Key = { apiPublicKey: signerPair.publicKey, apiPrivateKey: signerPair.privateKey };
        const user = await submit(a, "create_api_only_users", "ACTIVITY_TYPE_CREATE_API_ONLY_USERS", {
          apiOnlyUsers: [
            { userName: "signer", userTags: [], apiKeys: [{ apiKeyName: "k", publicKey: signer.apiPublicKey }] },
          ],
        });
        const signerId = (
          user.json.activity?.result?.createApiOnlyUsersResult?.userIds as string[] | undefined
        )?.[0] as string;
        const policy = await submit(b, "create_policy", "ACTIVITY_TYPE_CREATE_POLICY_V3", {
          policyName: "signer may sign",
          effect: "EFFECT_ALLOW",
          consensus: `approvers.any(user, user.id == '${signerId}')`,
          condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
          notes: "",
        });
        const policyId = policy.json.activity?.result?.createPolicyResult?.policyId as string;
        expect([tag, wallet, user, policy].every(completed)).toBe(true);
        const sign = (baseUrl: string) =>
          submit(
            baseUrl,
            "sign_raw_payload",
            "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
            {
              signWith: walletResult.addresses[0],
              payload: randomBytes(32).toString("hex"),
              encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
              hashFunction: "HASH_FUNCTION_NO_OP",
            },
            signer,
          );

        // --- Conflicting load, spread over both servers, all at once.
        const servedBy = (i: number) => (i % 2 === 0 ? a : b);
        const sameBody = activityBody("ACTIVITY_TYPE_CREATE_USER_TAG", org, { userTagName: "once", userIds: [] });
        const [renames, paths, twice, signatures, removal] = await Promise.all([
          Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              submit(servedBy(i), "update_user_tag", "ACTIVITY_TYPE_UPDATE_USER_TAG", {
                userTagId: tagId,
                newUserTagName: `tag-${i + 1}`,
                addUserIds: [],
                removeUserIds: [],
              }),
            ),
          ),
          Promise.all(
            [a, b, a, b].map((baseUrl) =>
              submit(baseUrl, "create_wallet_accounts", "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", {
                walletId: walletResult.walletId,
                accounts: [{ ...ETHEREUM_ACCOUNT, path: "m/44'/60'/0'/0/7" }],
              }),
            ),
          ),
          Promise.all(
            [a, b, a, b].map((baseUrl) => post(baseUrl, "/public/v1/submit/create_user_tag", sameBody, root)),
          ),
          Promise.all(Array.from({ length: 8 }, (_, i) => sign(servedBy(i)))),
          submit(a, "delete_policy", "ACTIVITY_TYPE_DELETE_POLICY", { policyId }),
        ]);

        // The same tag renamed eight times: every rename committed, in some order; one tag, with one of the names.
        expect(renames.every(completed)).toBe(true);
        const tags = (await query(b, "list_user_tags", { organizationId: org })).json.userTags as {
          tagId: string;
          tagName: string;
        }[];
        const renamed = tags.filter((t) => t.tagId === tagId);
        expect(renamed).toHaveLength(1);
        expect(Array.from({ length: 8 }, (_, i) => `tag-${i + 1}`)).toContain(renamed[0]?.tagName);
        // The same path asked for four times: one account made, the others refused as already there.
        expect(paths.filter(completed)).toHaveLength(1);
        expect(paths.filter((answer) => !completed(answer)).every((answer) => answer.status === 409)).toBe(true);
        const accounts = (
          await query(a, "list_wallet_accounts", { organizationId: org, walletId: walletResult.walletId })
        ).json.accounts as { path: string }[];
        expect(accounts.filter((account) => account.path === "m/44'/60'/0'/0/7")).toHaveLength(1);
        // The same body on both servers: one activity, one tag.
        expect(twice.every(completed)).toBe(true);
        expect(new Set(twice.map((answer) => answer.json.activity?.id)).size).toBe(1);
        expect(tags.filter((t) => t.tagName === "once")).toHaveLength(1);
        // Signatures decided while the policy went: each either signed or denied, nothing in between.
        expect(completed(removal)).toBe(true);
        for (const answer of signatures) expect(completed(answer) || answer.status === 403).toBe(true);
        // Once the removal has committed, neither server lets the signer sign (no stale policy anywhere).
        expect((await sign(a)).status).toBe(403);
        expect((await sign(b)).status).toBe(403);

        // --- Kill one server mid-load: the other keeps serving, and every acknowledged activity stays.
        const acknowledged = new Map<string, string>(); // activity id → tag name
        let killed = false;
        let n = 0;
        const worker = async (w: number) => {
          while (acknowledged.size < 40) {
            const name = `load-${w}-${n++}`;
            const target = killed || n % 2 === 0 ? b : a;
            const answer = await submit(target, "create_user_tag", "ACTIVITY_TYPE_CREATE_USER_TAG", {
              userTagName: name,
              userIds: [],
            }).catch(() => undefined);
            if (answer && completed(answer)) acknowledged.set(answer.json.activity?.id as string, name);
          }
        };
        const load = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
        while (acknowledged.size < 12) await new Promise((resolve) => setTimeout(resolve, 10));
        first.child.kill("SIGKILL");
        killed = true;
        await load;
        expect(first.child.signalCode ?? (await new Promise((r) => first.child.once("exit", (_c, s) => r(s))))).toBe(
          "SIGKILL",
        );
        const after = await submit(b, "create_user_tag", "ACTIVITY_TYPE_CREATE_USER_TAG", {
          userTagName: "after-kill",
          userIds: [],
        });
        expect(completed(after)).toBe(true);
        const names = new Set(
          ((await query(b, "list_user_tags", { organizationId: org })).json.userTags as { tagName: string }[]).map(
            (t) => t.tagName,
          ),
        );
        for (const [activityId, name] of acknowledged) {
          expect(names.has(name)).toBe(true);
          const found = await query(b, "get_activity", { organizationId: org, activityId });
          expect(found.json.activity?.status).toBe("ACTIVITY_STATUS_COMPLETED");
        }
      } finally {
        for (const server of servers) await server.stop();
        const pool = new pg.Pool({ connectionString: url });
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
        rmSync(data, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
