/**
 * Hostile bodies: huge, endlessly chunked, deeply nested, `__proto__`, bad UTF-8, BOMs, duplicate keys. None may
 * break the server, pollute an object or store anything.
 *
 * @module
 */
import { connect } from "node:net";
import { type Client, check, clientFor, raw, stampHeader, type Target } from "./harness.js";

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

async function activityCount(client: Client): Promise<number> {
  return (await client.getActivities({ paginationOptions: { limit: "100" } })).activities.length;
}

export async function hostileBodies({ server, root, organizationId: orgId }: Target) {
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
    {
      name: "constructor.prototype member",
      body: valid(`,"constructor":{"prototype":{"polluted":true}}`),
      signedMay: "any",
    },
    {
      name: "bad UTF-8",
      body: Buffer.concat([Buffer.from(valid().slice(0, 40)), Buffer.from([0xc3, 0x28])]),
      signedMay: "refused",
    },
    {
      name: "UTF-8 BOM",
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid())]),
      signedMay: "refused",
    },
    {
      name: "duplicate keys",
      body: valid().replace(/"walletName":"hostile-\d+"/, `"walletName":"a","walletName":"b"`),
      signedMay: "any",
    },
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
          signed && signedMay === "any" ? response.status < 500 : response.status >= 400 && response.status < 500;
        check(
          `hostile body (${name}${signed ? ", signed" : ""}) answered without a 5xx, refused unless well-formed`,
          ok,
          String(response.status),
        );
      } catch (error) {
        // A server that cuts a huge upload short may close before the client finished sending.
        check(
          `hostile body (${name}) gets an answer or a closed connection`,
          String(error).includes("fetch failed") || String(error).includes("other side closed"),
          String(error),
        );
      }
    }
  }
  if (process.env.VERBOSE) console.log(statuses.join("\n"));
  check("no object was polluted in this process either", ({} as Record<string, unknown>).polluted === undefined);
  const uploads = await Promise.all(Array.from({ length: 20 }, () => endlessUpload(server.baseUrl)));
  check(
    "20 endless chunked uploads are each cut off well before 64 MiB",
    uploads.every((n) => n < 32 * 1024 * 1024),
    uploads.join(","),
  );
  const stored = (await activityCount(client)) - before;
  check("refused hostile bodies stored nothing", stored === accepted, `${accepted} accepted, ${stored} stored`);
  const whoami = await client.getWhoami({});
  check("the server still answers after the hostile bodies", whoami.organizationId === orgId);
}
