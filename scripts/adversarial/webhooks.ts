/**
 * Webhooks: URLs that reach loopback, private or metadata addresses through an IPv6 spelling are refused; and
 * one sub-organization's never-answering receivers do not delay a sibling's deliveries, measured on a dev
 * server of its own started with `--allow-insecure-webhooks` (so receivers on 127.0.0.1 are reached) and the
 * default delivery settings (a 10 s attempt deadline).
 *
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateP256KeyPair } from "@turnkey/crypto";
import {
  type ApiKey,
  type Client,
  check,
  clientFor,
  credentials,
  figure,
  raw,
  stampHeader,
  startServer,
  stopServer,
  type Target,
} from "./harness.js";

/** IPv6 spellings of loopback, private and metadata IPv4 addresses. */
const EMBEDDING_HOSTS = [
  "[::127.0.0.1]",
  "[64:ff9b::127.0.0.1]",
  "[2002:7f00:1::1]",
  "[::ffff:127.0.0.1]",
  "[0:0:0:0:0:FFFF:7F00:0001]",
  "[64:ff9b::169.254.169.254]",
  "[2002:a9fe:a9fe::1]",
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
  "[2001:db8:1::5efe:10.0.0.1]",
  "[::ffff:0:192.168.0.1]",
];

/** How long a delivery is waited for before it counts as not delivered. */
const PATIENCE_MS = 30_000;

async function embeddedAddresses({ server, root, organizationId }: Target): Promise<void> {
  const url = `${server.baseUrl}/public/v1/submit/create_webhook_endpoint`;
  for (const host of EMBEDDING_HOSTS) {
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { url: `https://${host}/hooks`, name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
    });
    const response = await raw(url, body, await stampHeader(root, body));
    check(
      `a webhook URL at ${host} is refused`,
      response.status === 400 && response.text.includes("not a public destination"),
      `${response.status} ${response.text.slice(0, 200)}`,
    );
  }
}

/** An HTTP receiver answering 200 that notes when each activity arrived. */
async function answeringReceiver() {
  const arrivals = new Map<string, number>();
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const activity = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string };
      if (typeof activity.id === "string") arrivals.set(activity.id, performance.now());
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    /** When `activityId` arrived, waiting up to {@link PATIENCE_MS}; undefined when it did not. */
    async arrival(activityId: string): Promise<number | undefined> {
      const deadline = performance.now() + PATIENCE_MS;
      while (!arrivals.has(activityId) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return arrivals.get(activityId);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A TCP server that accepts connections and never answers. */
async function silentReceiver() {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.resume();
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    held: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function subOrganization(client: Client, baseUrl: string, name: string) {
  const key = generateP256KeyPair();
  const { subOrganizationId } = await client.createSubOrganization({
    subOrganizationName: name,
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: `${name} root`,
        apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
        authenticators: [],
        oauthProviders: [],
      },
    ],
  });
  const apiKey: ApiKey = { publicKey: key.publicKey, privateKey: key.privateKey };
  return { organizationId: subOrganizationId, client: clientFor(baseUrl, apiKey, subOrganizationId) };
}

function addEndpoint(client: Client, url: string) {
  return client.createWebhookEndpoint({ name: "hooks", url, subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
}

/** Milliseconds from a wallet submitted by `client` to its delivery at `receiver`, or undefined. */
async function walletDeliveryMs(
  client: Client,
  receiver: Awaited<ReturnType<typeof answeringReceiver>>,
  name: string,
): Promise<number | undefined> {
  const started = performance.now();
  const { activity } = await client.createWallet({ walletName: name, accounts: [] });
  const arrived = await receiver.arrival(activity.id);
  return arrived === undefined ? undefined : arrived - started;
}

async function crossTenantDelay(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "custodian-adversarial-webhooks-"));
  const server = await startServer({ directory, args: ["--allow-insecure-webhooks"] });
  const sibling = await answeringReceiver();
  const hung = [await silentReceiver(), await silentReceiver(), await silentReceiver()];
  try {
    const creds = credentials(directory);
    const root = clientFor(
      server.baseUrl,
      { publicKey: creds.apiPublicKey, privateKey: creds.apiPrivateKey },
      creds.organizationId,
    );
    const slow = await subOrganization(root, server.baseUrl, "slow receivers");
    const other = await subOrganization(root, server.baseUrl, "sibling");
    const created = await addEndpoint(other.client, sibling.url);
    await sibling.arrival(created.activity.id);
    const unloaded = await walletDeliveryMs(other.client, sibling, "unloaded");

    for (const receiver of hung) await addEndpoint(slow.client, receiver.url);
    // 24 deliveries due ahead of the sibling's, each running to the 10 s deadline.
    for (let i = 0; i < 6; i++) await slow.client.createWallet({ walletName: `slow-${i}`, accounts: [] });
    const deadline = performance.now() + PATIENCE_MS;
    while (hung.every((receiver) => receiver.held() === 0) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const held = hung.reduce((sum, receiver) => sum + receiver.held(), 0);
    const loaded = await walletDeliveryMs(other.client, sibling, "loaded");

    figure("webhook delivery to a sub-organization, unloaded", unloaded ?? PATIENCE_MS, "ms");
    figure(
      "webhook delivery to a sub-organization beside a sibling's 3 never-answering endpoints (cross-tenant delay)",
      loaded ?? PATIENCE_MS,
      "ms",
    );
    figure("never-answering endpoints: connections held when the sibling's wallet was submitted", held, "connections");
    check("the unloaded webhook delivery arrives", unloaded !== undefined);
    check(
      "a sibling's never-answering webhook endpoints delay a sub-organization's delivery by under 5 s",
      loaded !== undefined && loaded < 5_000,
      `${loaded === undefined ? `over ${PATIENCE_MS}` : Math.round(loaded)} ms`,
    );
  } finally {
    await stopServer(server);
    await sibling.close();
    for (const receiver of hung) await receiver.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function webhooks(target: Target): Promise<void> {
  await embeddedAddresses(target);
  await crossTenantDelay();
}
