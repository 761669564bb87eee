/**
 * Tampered and replayed stamps, and sibling sub-organizations reaching into each other or their parent.
 *
 * @module
 */
import { generateP256KeyPair } from "@turnkey/crypto";
import { bodies, check, clientFor, raw, stampHeader, type Target } from "./harness.js";

export async function stampsAndOrganizations({ server, root, organizationId: orgId }: Target) {
  const client = clientFor(server.baseUrl, root, orgId);
  const url = `${server.baseUrl}/public/v1/submit/create_wallet`;
  const body = `{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"${Date.now()}","organizationId":"${orgId}","parameters":{"walletName":"replayed","accounts":[]}}`;
  const headers = await stampHeader(root, body);
  const tampered = await raw(url, body.replace("replayed", "tampered"), headers);
  check("a stamp over another body is refused", tampered.status === 401, String(tampered.status));
  const replays = await Promise.all(Array.from({ length: 200 }, () => raw(url, body, headers)));
  const ids = new Set(replays.map((r) => (JSON.parse(r.text) as { activity?: { id: string } }).activity?.id));
  check(
    "200 concurrent copies of one stamped body are one activity",
    ids.size === 1 && !ids.has(undefined),
    [...ids].join(","),
  );

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
    [
      "write a wallet in a sibling",
      () => sub0.createWallet({ organizationId: subs[1] as string, walletName: "x", accounts: [] }),
    ],
    ["write a wallet in the parent", () => sub0.createWallet({ organizationId: orgId, walletName: "x", accounts: [] })],
    [
      "write a wallet in a sub-organization as the parent",
      () => client.createWallet({ organizationId: subs[0] as string, walletName: "x", accounts: [] }),
    ],
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
  check(
    "a copied key still resolves to its owner through the parent",
    viaParent.organizationId === subs[1],
    viaParent.organizationId,
  );
}
