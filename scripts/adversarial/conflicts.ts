/**
 * Concurrent conflicting activities: each leaves one consistent result.
 *
 * @module
 */
import { check, clientFor, type Target } from "./harness.js";

export async function conflicts({ server, root, organizationId: orgId }: Target) {
  const client = clientFor(server.baseUrl, root, orgId);
  const whoami = await client.getWhoami({});
  const { userTagId } = await client.createUserTag({ userTagName: "contested", userIds: [] });
  const updates = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) =>
      client.updateUserTag({
        userTagId,
        newUserTagName: `contested-${i}`,
        addUserIds: [whoami.userId],
        removeUserIds: [],
      }),
    ),
  );
  const { userTags } = await client.listUserTags({});
  const tag = userTags.find((t) => t.tagId === userTagId);
  check(
    "100 concurrent updates of one tag leave one consistent tag",
    updates.every((u) => u.status === "fulfilled") && /^contested-\d+$/.test(tag?.tagName ?? ""),
    tag?.tagName,
  );
  const { walletId } = await client.createWallet({ walletName: "paths", accounts: [] });
  const account = {
    curve: "CURVE_SECP256K1",
    pathFormat: "PATH_FORMAT_BIP32",
    path: "m/44'/60'/0'/0/7",
    addressFormat: "ADDRESS_FORMAT_ETHEREUM",
  } as const;
  // Two bodies (the names differ), one path.
  const twice = await Promise.allSettled(
    [0, 1].map((i) => client.createWalletAccounts({ walletId, accounts: [{ ...account, name: `twice-${i}` }] })),
  );
  const { accounts } = await client.getWalletAccounts({ walletId });
  check(
    "the same path created twice concurrently gives exactly one account",
    accounts.length === 1 && twice.filter((t) => t.status === "fulfilled").length === 1,
    String(accounts.length),
  );
  const names = await Promise.allSettled(
    [12, 15, 18].map((mnemonicLength) =>
      client.createWallet({ walletName: "same-name", accounts: [], mnemonicLength }),
    ),
  );
  check(
    "the same wallet name created three times concurrently gives exactly one",
    names.filter((t) => t.status === "fulfilled").length === 1,
  );
}
