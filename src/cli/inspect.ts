/**
 * `custodian inspect`: the organizations and recent activities of a stopped dev server's data directory,
 * read through the engine as its root user, on a store opened read-only.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { hexToBytes } from "@noble/hashes/utils.js";
import { isCustodyError } from "../common/errors.js";
import { DATA_FILES, readCredentials } from "../devserver/data-directory.js";
import { readOnly } from "../devserver/read-only-store.js";
import { CustodyEngine } from "../engine/engine.js";
import { FileStore } from "../storage/file/index.js";
import { parseFlags } from "./parse-flags.js";

export const INSPECT_USAGE = `usage: custodian inspect [--data ./.custodian] [--activities 10]

Shows the organizations of a dev server's data directory (its organization and every sub-organization,
with their users, wallets, private keys and policies counted) and each one's most recent activities.
Nothing is written. A data directory in use by a running server is refused: its console (the address
the server printed) shows the same and more.

  --data        the data directory (default ./.custodian)
  --activities  how many recent activities to list per organization (default 10)
  -h, --help    this text
`;

/** One organization as inspect prints it. */
async function describeOrganization(
  root: CustodyEngine,
  organizationId: string,
  activities: number,
  depth: number,
): Promise<string[]> {
  const indent = "  ".repeat(depth);
  const { organizationData } = await root.getOrganization({ organizationId });
  const [{ users }, { wallets }, { privateKeys }, { policies }, { organizationIds }, recent] = await Promise.all([
    root.getUsers({ organizationId }),
    root.getWallets({ organizationId }),
    root.getPrivateKeys({ organizationId }),
    root.getPolicies({ organizationId }),
    root.getSubOrgIds({ organizationId }),
    root.getActivities({ organizationId, paginationOptions: { limit: String(activities) } }),
  ]);
  const lines = [
    `${indent}${depth === 0 ? "organization" : "sub-organization"} "${organizationData.name}" ${organizationId}`,
    `${indent}  users ${users.length} · wallets ${wallets.length} · private keys ${privateKeys.length} · policies ${policies.length} · sub-organizations ${organizationIds.length}`,
  ];
  if (recent.activities.length === 0) lines.push(`${indent}  no activities`);
  else lines.push(`${indent}  recent activities (newest first):`);
  for (const activity of recent.activities) {
    const at = new Date(Number(activity.createdAt.seconds) * 1000).toISOString();
    lines.push(`${indent}    ${at} ${activity.type} ${activity.status.replace("ACTIVITY_STATUS_", "")} ${activity.id}`);
  }
  for (const subId of organizationIds) lines.push(...(await describeOrganization(root, subId, activities, depth + 1)));
  return lines;
}

async function openReadOnly(storeDirectory: string): Promise<FileStore> {
  try {
    return await FileStore.open(storeDirectory);
  } catch (error) {
    if (isCustodyError(error) && error.details.reason === "STORE_LOCKED") {
      throw new Error(
        `${error.message}\ninspect reads a stopped server's data and does not take over a running one; stop it first, or open the console address it printed`,
      );
    }
    throw error;
  }
}

export async function inspect(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    {
      args: argv,
      options: {
        data: { type: "string", default: "./.custodian" },
        activities: { type: "string", default: "10" },
        help: { type: "boolean", short: "h", default: false },
      },
    },
    "inspect",
  );
  if (values.help) {
    process.stdout.write(INSPECT_USAGE);
    return;
  }
  const activities = Number(values.activities);
  if (!Number.isInteger(activities) || activities < 1 || activities > 100)
    throw new Error(`--activities must be 1-100, got ${values.activities}`);
  const dataDirectory = resolve(values.data);
  const storeDirectory = join(dataDirectory, DATA_FILES.store);
  const kekPath = join(dataDirectory, DATA_FILES.keyEncryptionKey);
  const credentials = readCredentials(join(dataDirectory, DATA_FILES.credentials));
  if (!existsSync(storeDirectory) || !existsSync(kekPath) || credentials === undefined) {
    throw new Error(
      `${dataDirectory} holds no dev server state (it needs ${DATA_FILES.store}/, ${DATA_FILES.keyEncryptionKey} and ${DATA_FILES.credentials}; --memory runs keep none)`,
    );
  }
  const store = await openReadOnly(storeDirectory);
  const engine = new CustodyEngine({
    store: readOnly(store),
    keyEncryptionKey: hexToBytes(readFileSync(kekPath, "utf8").trim()),
    deliverWebhooks: false,
  });
  try {
    const root = engine.as({ userId: credentials.userId });
    const lines = [
      `data directory ${dataDirectory} (${store.recovery.sequence} transactions)`,
      ...(await describeOrganization(root, credentials.organizationId, activities, 0)),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await engine.close();
    await store.close();
  }
}
