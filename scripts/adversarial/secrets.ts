/**
 * Secrets: known ones are made (an exported mnemonic, a plaintext mnemonic sent where a bundle belongs), then
 * looked for in the store's files, the server's output and every activity and error body.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { decryptExportBundle, generateP256KeyPair } from "@turnkey/crypto";
import { bodies, check, clientFor, credentials, data, output, type Target } from "./harness.js";

/** Exports a wallet's mnemonic through the official decryption, to know a secret to scan for. */
export async function knownSecrets({ server, root, organizationId: orgId }: Target) {
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
    .importWallet({
      userId: (await client.getWhoami({})).userId,
      walletName: "misplaced",
      encryptedBundle: misplaced,
      accounts: [],
    })
    .catch((error: unknown) => bodies.push(JSON.stringify(error)));
  return [mnemonic, misplaced];
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export async function allActivityBodies({ server, root, organizationId: orgId }: Target) {
  const client = clientFor(server.baseUrl, root, orgId);
  let after: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const { activities } = await client.getActivities({
      paginationOptions: { limit: "100", ...(after ? { after } : {}) },
    });
    bodies.push(JSON.stringify(activities));
    if (activities.length < 100) break;
    after = activities[activities.length - 1]?.id;
  }
}

export function secretScan(secrets: string[]): void {
  const store = join(data, "store");
  for (const file of filesUnder(store)) {
    const text = readFileSync(file).toString("latin1");
    for (const secret of secrets) check(`secret scan: ${file.slice(data.length)}`, !text.includes(secret));
    check(`store file mode 0600: ${file.slice(data.length)}`, (statSync(file).mode & 0o777) === 0o600);
  }
  for (const secret of secrets) {
    check("secret scan: server output", !output.text.includes(secret));
    check("secret scan: activity and error bodies", !bodies.some((body) => body.includes(secret)));
  }
  check("the server logged no internal error", !output.text.includes("internal error"), output.text.slice(0, 400));
}
