/**
 * The engine end to end on PostgresStore (the real server when CUSTODIAN_PG_URL is set, PGlite otherwise):
 * an organization, a wallet and a signature checked by viem, no secret in plain text in the tables, and two
 * engines on one database answering the same body with one activity.
 */
import { randomBytes } from "node:crypto";
import { bytesToHex } from "@noble/hashes/utils.js";
import { hashMessage, recoverAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createSealer } from "../../src/crypto/seal/index.js";
import { CustodyEngine } from "../../src/index.js";
import { PostgresStore } from "../../src/storage/postgres/index.js";
import { p256KeyPair } from "../support/engine.js";
import { postgresKind, queryDatabase, testDatabase } from "../support/postgres.js";

async function organizationOn(engine: CustodyEngine) {
  const key = p256KeyPair();
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Shared",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  return { organizationId, userId: rootUserIds[0] as string };
}

describe(`the engine on PostgresStore (${postgresKind})`, () => {
  it("creates an organization and a wallet, signs, and stores no secret in plain text", async () => {
    const { connection, schema } = await testDatabase();
    const keyEncryptionKey = randomBytes(32);
    const engine = new CustodyEngine({ store: await PostgresStore.open(connection, { schema }), keyEncryptionKey });
    await engine.open();
    const { organizationId, userId } = await organizationOn(engine);
    const root = engine.as({ userId });
    const wallet = await root.createWallet({
      organizationId,
      parameters: {
        walletName: "w",
        accounts: [
          {
            curve: "CURVE_SECP256K1",
            pathFormat: "PATH_FORMAT_BIP32",
            path: "m/44'/60'/0'/0/0",
            addressFormat: "ADDRESS_FORMAT_ETHEREUM",
          },
        ],
      },
    });
    const { walletId, addresses } = wallet.activity.result!.createWalletResult as {
      walletId: string;
      addresses: string[];
    };
    const address = addresses[0] as string;
    const digest = hashMessage("kept in postgres");
    const { activity } = await root.signRawPayload({
      organizationId,
      parameters: {
        signWith: address,
        payload: digest,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    const { r, s, v } = activity.result!.signRawPayloadResult as { r: string; s: string; v: string };
    expect(await recoverAddress({ hash: digest, signature: `0x${r}${s}${v === "00" ? "1b" : "1c"}` })).toBe(address);

    // What only the key-encryption key can reveal must appear nowhere in the tables.
    const mnemonic = await engine.store.read(async (reader) => {
      const meta = (await reader.get("meta", "sealing.dataKey")) as unknown as { value: string };
      const stored = (await reader.get("wallets", walletId)) as unknown as { sealedMnemonic: string };
      const sealer = createSealer({ keyEncryptionKey, wrappedDataKey: meta.value });
      return new TextDecoder().decode(sealer.open(stored.sealedMnemonic, `wallet:${walletId}:mnemonic`));
    });
    await engine.store.close();
    const words = mnemonic.split(" ");
    expect(words).toHaveLength(12);
    const rows = await queryDatabase(connection, `SELECT body FROM "${schema}".records`);
    expect(rows.length).toBeGreaterThan(5);
    const tables = rows.map((row) => row.body as string).join("\n");
    expect(tables).toContain(walletId);
    for (let i = 0; i + 3 <= words.length; i++) expect(tables).not.toContain(words.slice(i, i + 3).join(" "));
    expect(tables.toLowerCase()).not.toContain(bytesToHex(keyEncryptionKey));
  });

  it("gives one activity when two engines on one database submit the same body at the same moment", async () => {
    const { connection, schema } = await testDatabase();
    const keyEncryptionKey = randomBytes(32);
    const engines = await Promise.all(
      [0, 1].map(async () => {
        const engine = new CustodyEngine({ store: await PostgresStore.open(connection, { schema }), keyEncryptionKey });
        await engine.open();
        return engine;
      }),
    );
    const [first, second] = engines as [CustodyEngine, CustodyEngine];
    const { organizationId, userId } = await organizationOn(first);
    const body = { organizationId, timestampMs: String(Date.now()), parameters: { userTagName: "once", userIds: [] } };
    const answers = await Promise.all([
      first.as({ userId }).createUserTag(body),
      second.as({ userId }).createUserTag(body),
    ]);
    expect(answers[1].activity.id).toBe(answers[0].activity.id);
    expect(answers.map((answer) => answer.activity.status)).toEqual([
      "ACTIVITY_STATUS_COMPLETED",
      "ACTIVITY_STATUS_COMPLETED",
    ]);
    const { activities } = await second.as({ userId }).getActivities({ organizationId });
    expect(activities.filter((listed) => listed.type === answers[0].activity.type)).toHaveLength(1);
    expect((await first.as({ userId }).listUserTags({ organizationId })).userTags).toHaveLength(1);
    await Promise.all(engines.map((engine) => engine.store.close()));
  });
});
