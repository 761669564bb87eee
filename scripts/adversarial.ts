/**
 * The long adversarial run (`npm run adversarial`): starts the dev server on a fresh file store on
 * 127.0.0.1 and attacks it the way the review did. Hostile bodies (huge, endless chunked, deep nesting,
 * `__proto__`, bad UTF-8, BOMs, duplicate keys), tampered and replayed stamps, cross-organization reads and
 * writes, concurrent conflicting activities, SIGKILL during load (nothing acknowledged may be lost), and a
 * scan for secrets in the data directory, the server's output and every activity and error body.
 *
 * Every load is bounded in count and time. Prints the cases tried and the failures; exits 1 on a failure.
 * `ROUNDS` (default 12) sets the SIGKILL rounds.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { Turnkey } from "@turnkey/sdk-server";

const ROUNDS = Number(process.env.ROUNDS ?? 12);
const data = mkdtempSync(join(tmpdir(), "custodian-adversarial-"));
let output = "";
let tried = 0;
const failures: string[] = [];

function check(name: string, ok: boolean, detail = ""): void {
  tried++;
  if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ""}`);
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
}

/** `custodian serve` on the data directory, on a free loopback port. */
async function startServer(): Promise<Server> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli.ts", "serve", "--port", "0", "--host", "127.0.0.1", "--data", data],
    {
      stdio: ["ignore", "pipe", "pipe"],
      // The run is about the file store: a CUSTODIAN_PG_URL in the environment would move state to PostgreSQL.
      env: { ...process.env, CUSTODIAN_PG_URL: "" },
    },
  );
  let banner = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 60 s: ${banner}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      banner += chunk.toString();
      output += chunk.toString();
      const match = banner.match(/listening on (http:\/\/\S+)/);
      if (match && /^storage: /m.test(banner)) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${banner}`)));
  });
  return { child, baseUrl };
}

async function stopServer(server: Server, signal: NodeJS.Signals = "SIGINT"): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill(signal);
  await exited;
}

interface Credentials {
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  signerPublicKey: string;
}

const credentials = () => JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as Credentials;

function clientFor(baseUrl: string, key: { publicKey: string; privateKey: string }, organizationId: string) {
  return new Turnkey({
    apiBaseUrl: baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: organizationId,
  }).apiClient();
}

/** Every response body the run saw, for the secret scan. */
const bodies: string[] = [];

async function raw(url: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : Buffer.from(body),
    headers: { "content-type": "application/json", ...headers },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, text };
}

async function stampHeader(key: { publicKey: string; privateKey: string }, body: string) {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
  return { [stampHeaderName]: stampHeaderValue };
}

/** An endless chunked upload, bounded at 64 MiB: how much the server let through before closing. */
function endlessUpload(baseUrl: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const cap = 64 * 1024 * 1024;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")]);
    let written = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(written);
    };
    const pump = () => {
      while (!done && written < cap) {
        written += chunk.length;
        if (!socket.write(chunk)) return;
      }
      if (written >= cap) finish();
    };
    socket.on("drain", pump);
    socket.on("close", finish);
    socket.on("error", finish);
    socket.setTimeout(30_000, finish);
    socket.on("connect", () => {
      socket.write(
        `POST /public/v1/submit/create_wallet HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      pump();
    });
  });
}

async function activityCount(client: ReturnType<typeof clientFor>): Promise<number> {
  return (await client.getActivities({ paginationOptions: { limit: "100" } })).activities.length;
}

async function hostileBodies(server: Server, root: { publicKey: string; privateKey: string }, orgId: string) {
  const client = clientFor(server.baseUrl, root, orgId);
  const before = await activityCount(client);
  const url = `${server.baseUrl}/public/v1/submit/create_wallet`;
  let walletNames = 0;
  const valid = (extra = "") =>
    `{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"${Date.now()}","organizationId":"${orgId}","parameters":{"walletName":"hostile-${walletNames++}","accounts":[]${extra}}}`;
  // `refused`: no signature can make it acceptable. `any`: well-formed apart from the hostile part, so a
  // signed copy may succeed (unknown members are dropped, a duplicate key takes its last value, as JSON
  // parsers do); what matters is that nothing breaks and nothing is polluted.
  const cases: { name: string; body: string | Uint8Array; signedMay: "refused" | "any" }[] = [
    { name: "10 MB body", body: "x".repeat(10 * 1024 * 1024), signedMay: "refused" },
    { name: "500,000-deep nesting", body: `${"[".repeat(500_000)}${"]".repeat(500_000)}`, signedMay: "refused" },
    { name: "__proto__ member", body: valid(`,"__proto__":{"polluted":true}`), signedMay: "any" },
    { name: "constructor.prototype member", body: valid(`,"constructor":{"prototype":{"polluted":true}}`), signedMay: "any" },
    { name: "bad UTF-8", body: Buffer.concat([Buffer.from(valid().slice(0, 40)), Buffer.from([0xc3, 0x28])]), signedMay: "refused" },
    { name: "UTF-8 BOM", body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid())]), signedMay: "refused" },
    { name: "duplicate keys", body: valid().replace(/"walletName":"hostile-\d+"/, `"walletName":"a","walletName":"b"`), signedMay: "any" },
    { name: "not JSON", body: "{", signedMay: "refused" },
    { name: "JSON array", body: "[]", signedMay: "refused" },
    { name: "mnemonicLength 1e9", body: valid(`,"mnemonicLength":1000000000`), signedMay: "refused" },
  ];
  let accepted = 0;
  const statuses: string[] = [];
  for (const { name, body, signedMay } of cases) {
    for (const signed of [false, true]) {
      const text = typeof body === "string" ? body : Buffer.from(body).toString("latin1");
      const headers = signed && text.length < 1_000_000 ? await stampHeader(root, text) : {};
      try {
        const response = await raw(url, body, headers);
        if (response.status === 200) accepted++;
        statuses.push(`${name}${signed ? " (signed)" : ""}: ${response.status}`);
        const ok =
          signed && signedMay === "any"
            ? response.status < 500
            : response.status >= 400 && response.status < 500;
        check(`hostile body (${name}${signed ? ", signed" : ""}) answered without a 5xx, refused unless well-formed`, ok, String(response.status));
      } catch (error) {
        // A server that cuts a huge upload short may close before the client finished sending.
        check(`hostile body (${name}) gets an answer or a closed connection`, String(error).includes("fetch failed") || String(error).includes("other side closed"), String(error));
      }
    }
  }
  if (process.env.VERBOSE) console.log(statuses.join("\n"));
  check("no object was polluted in this process either", ({} as Record<string, unknown>).polluted === undefined);
  const uploads = await Promise.all(Array.from({ length: 20 }, () => endlessUpload(server.baseUrl)));
  check("20 endless chunked uploads are each cut off well before 64 MiB", uploads.every((n) => n < 32 * 1024 * 1024), uploads.join(","));
  const stored = (await activityCount(client)) - before;
  check("refused hostile bodies stored nothing", stored === accepted, `${accepted} accepted, ${stored} stored`);
  const whoami = await client.getWhoami({});
  check("the server still answers after the hostile bodies", whoami.organizationId === orgId);
}

async function stampsAndOrganizations(server: Server, root: { publicKey: string; privateKey: string }, orgId: string) {
  const client = clientFor(server.baseUrl, root, orgId);
  const url = `${server.baseUrl}/public/v1/submit/create_wallet`;
  const body = `{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"${Date.now()}","organizationId":"${orgId}","parameters":{"walletName":"replayed","accounts":[]}}`;
  const headers = await stampHeader(root, body);
  const tampered = await raw(url, body.replace("replayed", "tampered"), headers);
  check("a stamp over another body is refused", tampered.status === 401, String(tampered.status));
  const replays = await Promise.all(Array.from({ length: 200 }, () => raw(url, body, headers)));
  const ids = new Set(replays.map((r) => (JSON.parse(r.text) as { activity?: { id: string } }).activity?.id));
  check("200 concurrent copies of one stamped body are one activity", ids.size === 1 && !ids.has(undefined), [...ids].join(","));

  // Two sibling sub-organizations: neither reads nor writes the other, nor writes the parent.
  const keys = [generateP256KeyPair(), generateP256KeyPair()];
  const subs: string[] = [];
  for (const [i, key] of keys.entries()) {
    const { subOrganizationId } = await client.createSubOrganization({
      subOrganizationName: `sub-${i}`,
      rootQuorumThreshold: 1,
      rootUsers: [
        {
          userName: `sub-${i}-root`,
          apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
    });
    subs.push(subOrganizationId);
  }
  const sub0 = clientFor(server.baseUrl, keys[0] as never, subs[0] as string);
  for (const [name, attempt] of [
    ["read a sibling's wallets", () => sub0.getWallets({ organizationId: subs[1] as string })],
    ["read the parent's wallets", () => sub0.getWallets({ organizationId: orgId })],
    ["write a wallet in a sibling", () => sub0.createWallet({ organizationId: subs[1] as string, walletName: "x", accounts: [] })],
    ["write a wallet in the parent", () => sub0.createWallet({ organizationId: orgId, walletName: "x", accounts: [] })],
    ["write a wallet in a sub-organization as the parent", () => client.createWallet({ organizationId: subs[0] as string, walletName: "x", accounts: [] })],
  ] as const) {
    const outcome = await (attempt as () => Promise<unknown>)().then(
      () => "allowed",
      (error: unknown) => String((error as { message?: string }).message),
    );
    bodies.push(outcome);
    check(`cross-organization: cannot ${name}`, outcome !== "allowed", outcome);
  }
  // A sibling registering the other's key does not take it over.
  const sub1Key = keys[1] as { publicKey: string; privateKey: string };
  const sub0Whoami = await sub0.getWhoami({});
  await sub0.createApiKeys({
    userId: sub0Whoami.userId,
    apiKeys: [{ apiKeyName: "copied", publicKey: sub1Key.publicKey, curveType: "API_KEY_CURVE_P256" }],
  });
  const viaParent = await clientFor(server.baseUrl, sub1Key as never, orgId).getWhoami({});
  check("a copied key still resolves to its owner through the parent", viaParent.organizationId === subs[1], viaParent.organizationId);
}

async function conflicts(server: Server, root: { publicKey: string; privateKey: string }, orgId: string) {
  const client = clientFor(server.baseUrl, root, orgId);
  const whoami = await client.getWhoami({});
  const { userTagId } = await client.createUserTag({ userTagName: "contested", userIds: [] });
  const updates = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) =>
      client.updateUserTag({ userTagId, newUserTagName: `contested-${i}`, addUserIds: [whoami.userId], removeUserIds: [] }),
    ),
  );
  const { userTags } = await client.listUserTags({});
  const tag = userTags.find((t) => t.tagId === userTagId);
  check("100 concurrent updates of one tag leave one consistent tag", updates.every((u) => u.status === "fulfilled") && /^contested-\d+$/.test(tag?.tagName ?? ""), tag?.tagName);
  const { walletId } = await client.createWallet({ walletName: "paths", accounts: [] });
  const account = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/7", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;
  // Two bodies (the names differ), one path.
  const twice = await Promise.allSettled(
    [0, 1].map((i) => client.createWalletAccounts({ walletId, accounts: [{ ...account, name: `twice-${i}` }] })),
  );
  const { accounts } = await client.getWalletAccounts({ walletId });
  check("the same path created twice concurrently gives exactly one account", accounts.length === 1 && twice.filter((t) => t.status === "fulfilled").length === 1, String(accounts.length));
  const names = await Promise.allSettled(
    [12, 15, 18].map((mnemonicLength) => client.createWallet({ walletName: "same-name", accounts: [], mnemonicLength })),
  );
  check("the same wallet name created three times concurrently gives exactly one", names.filter((t) => t.status === "fulfilled").length === 1);
}

/** Exports a wallet's mnemonic through the official decryption, to know a secret to scan for. */
async function knownSecrets(server: Server, root: { publicKey: string; privateKey: string }, orgId: string) {
  const client = clientFor(server.baseUrl, root, orgId);
  const { walletId } = await client.createWallet({ walletName: "exported", accounts: [] });
  const target = generateP256KeyPair();
  const { exportBundle } = await client.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
  const mnemonic = await decryptExportBundle({
    exportBundle,
    embeddedKey: target.privateKey,
    organizationId: orgId,
    dangerouslyOverrideSignerPublicKey: credentials().signerPublicKey,
    returnMnemonic: true,
  });
  // A plaintext mnemonic sent where a bundle belongs must not be kept either.
  const misplaced = "legal winner thank year wave sausage worth useful legal winner thank yellow";
  await client.initImportWallet({ userId: (await client.getWhoami({})).userId });
  await client
    .importWallet({ userId: (await client.getWhoami({})).userId, walletName: "misplaced", encryptedBundle: misplaced, accounts: [] })
    .catch((error: unknown) => bodies.push(JSON.stringify(error)));
  return [mnemonic, misplaced];
}

async function killRounds(root: { publicKey: string; privateKey: string }, orgId: string): Promise<number> {
  let acknowledged = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer();
    const client = clientFor(server.baseUrl, root, orgId);
    const acked: string[] = [];
    let stop = false;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop && i < 200; i++) {
        try {
          const result = await client.createWallet({ walletName: `kill-${round}-${w}-${i}`, accounts: [] });
          if (!stop) acked.push(result.activity.id);
        } catch {
          return;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.floor(Math.random() * 2000)));
    // Only what was acknowledged before the kill counts: responses read after it are not trusted.
    stop = true;
    const counted = [...acked];
    await stopServer(server, "SIGKILL");
    await Promise.allSettled(workers);
    const restarted = await startServer();
    const check2 = clientFor(restarted.baseUrl, root, orgId);
    let lost = 0;
    for (const activityId of counted) {
      const found = await check2.getActivity({ activityId }).then(
        (r) => r.activity.status === "ACTIVITY_STATUS_COMPLETED",
        () => false,
      );
      if (!found) lost++;
    }
    check(`SIGKILL round ${round + 1}: none of ${counted.length} acknowledged activities lost`, lost === 0, `${lost} lost`);
    acknowledged += counted.length;
    await stopServer(restarted);
  }
  return acknowledged;
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function allActivityBodies(server: Server, root: { publicKey: string; privateKey: string }, orgId: string) {
  const client = clientFor(server.baseUrl, root, orgId);
  let after: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const { activities } = await client.getActivities({ paginationOptions: { limit: "100", ...(after ? { after } : {}) } });
    bodies.push(JSON.stringify(activities));
    if (activities.length < 100) break;
    after = activities[activities.length - 1]?.id;
  }
}

function secretScan(secrets: string[]): void {
  const store = join(data, "store");
  for (const file of filesUnder(store)) {
    const text = readFileSync(file).toString("latin1");
    for (const secret of secrets) check(`secret scan: ${file.slice(data.length)}`, !text.includes(secret));
    check(`store file mode 0600: ${file.slice(data.length)}`, (statSync(file).mode & 0o777) === 0o600);
  }
  for (const secret of secrets) {
    check("secret scan: server output", !output.includes(secret));
    check("secret scan: activity and error bodies", !bodies.some((body) => body.includes(secret)));
  }
  check("the server logged no internal error", !output.includes("internal error"), output.slice(0, 400));
}

async function main(): Promise<void> {
  const started = Date.now();
  let server = await startServer();
  try {
    const creds = credentials();
    const root = { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey };
    await hostileBodies(server, root, creds.organizationId);
    await stampsAndOrganizations(server, root, creds.organizationId);
    await conflicts(server, root, creds.organizationId);
    const secrets = await knownSecrets(server, root, creds.organizationId);
    await stopServer(server);
    const acknowledged = await killRounds(root, creds.organizationId);
    server = await startServer();
    await allActivityBodies(server, root, creds.organizationId);
    await stopServer(server);
    secretScan(secrets);
    console.log(`SIGKILL rounds: ${ROUNDS}, acknowledged activities checked: ${acknowledged}`);
  } finally {
    await stopServer(server, "SIGKILL");
  }
  console.log(`cases tried: ${tried}`);
  console.log(`failures: ${failures.length}`);
  for (const failure of failures) console.log(`  FAIL ${failure}`);
  console.log(`took ${Math.round((Date.now() - started) / 1000)} s`);
  rmSync(data, { recursive: true, force: true });
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error("adversarial run aborted:", error);
  process.exitCode = 1;
});
