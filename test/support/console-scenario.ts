/**
 * A dev server holding what the console's explanations are about, built through the official client: a
 * 5 ETH EIP-1559 signing denied by a deny policy over `eth.tx.value`, a wallet waiting for a 2-of-2
 * approval (alice submitted it, bob's approval is missing), a user tag bob submitted that waits for his
 * passkey (his MFA policy asks for an API key and then a passkey), and names and payloads that would run as
 * markup if the console inserted them unescaped. Used by the console tests and by
 * `scripts/console-screenshots.ts`.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Turnkey } from "@turnkey/sdk-server";
import { serializeTransaction } from "viem";
import { type DevCredentials, type DevServer, startDevServer } from "./dev-server.js";

/** Markup that would show an image (and run script) if inserted unescaped. */
export const HOSTILE = `<img src=x onerror="document.title='pwned'">`;

const ACCOUNT = {
  curve: "CURVE_SECP256K1",
  pathFormat: "PATH_FORMAT_BIP32",
  path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
} as const;

export interface ApiKey {
  apiPublicKey: string;
  apiPrivateKey: string;
}

export interface ConsoleScenario {
  server: DevServer;
  credentials: DevCredentials;
  /** The console address the server printed, with its token. */
  consoleUrl: string;
  users: { alice: string; bob: string };
  bobKey: ApiKey;
  deniedActivityId: string;
  pendingActivityId: string;
  /** Bob's user tag, held in `ACTIVITY_STATUS_AUTHENTICATORS_NEEDED` until he proves a passkey. */
  mfaActivityId: string;
  /** An EIP-712 signing no policy allows, whose message carries {@link HOSTILE}. */
  typedDataActivityId: string;
  denyPolicyId: string;
  unsignedTransaction: string;
  client: (key: ApiKey) => ReturnType<Turnkey["apiClient"]>;
}

function newKey(): ApiKey {
  const secret = p256.utils.randomSecretKey();
  return { apiPublicKey: bytesToHex(p256.getPublicKey(secret, true)), apiPrivateKey: bytesToHex(secret) };
}

async function failedActivityId(attempt: Promise<unknown>): Promise<void> {
  await attempt.then(
    () => {
      throw new Error("expected a denial");
    },
    () => undefined,
  );
}

/** Starts a dev server and fills it (see the module comment). */
export async function buildConsoleScenario(options: { hostile?: boolean } = {}): Promise<ConsoleScenario> {
  // Screenshots read better without the markup; the tests keep it.
  const marked = options.hostile === false ? "" : ` ${HOSTILE}`;
  const data = mkdtempSync(join(tmpdir(), "custodian-console-explain-"));
  const server = startDevServer(["--port", "0", "--data", data, "--memory", "--seed", "console-explain"]);
  await server.ready;
  const consoleUrl = (server.output().match(/^console (\S+)$/m) as RegExpMatchArray)[1] as string;
  const credentials = JSON.parse(readFileSync(join(data, "memory-root-api-key.json"), "utf8")) as DevCredentials;
  const client = (key: ApiKey) =>
    new Turnkey({
      apiBaseUrl: credentials.baseUrl,
      ...key,
      defaultOrganizationId: credentials.organizationId,
      activityPoller: { intervalMs: 10, numRetries: 1 },
    }).apiClient();
  const root = client(credentials);
  const aliceKey = newKey();
  const bobKey = newKey();
  const user = (userName: string, key: ApiKey) => ({
    userName,
    apiKeys: [
      { apiKeyName: `${userName}'s key`, publicKey: key.apiPublicKey, curveType: "API_KEY_CURVE_P256" as const },
    ],
    authenticators: [],
    oauthProviders: [],
    userTags: [],
  });
  const { userIds } = await root.createUsers({ users: [user("alice", aliceKey), user("bob", bobKey)] });
  const [alice, bob] = userIds as [string, string];
  const { addresses } = await root.createWallet({ walletName: "treasury", accounts: [ACCOUNT] });
  const signWith = addresses[0] as string;

  const { policyId: denyPolicyId } = await root.createPolicy({
    policyName: `sends over 1 ETH${marked}`,
    effect: "EFFECT_DENY",
    condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && eth.tx.value > 1000000000000000000",
    notes: "",
  });
  await root.createPolicy({
    policyName: "small sends",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && eth.tx.value < 1000000000000000000",
    notes: "",
  });
  await root.createPolicy({
    policyName: "wallets need alice and bob",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: `approvers.any(u, u.id == '${alice}') && approvers.any(u, u.id == '${bob}')`,
    notes: "",
  });

  const asAlice = client(aliceKey);
  const unsignedTransaction = serializeTransaction({
    type: "eip1559",
    chainId: 1,
    nonce: 7,
    to: "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    value: 5n * 10n ** 18n,
    gas: 21_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  await failedActivityId(asAlice.signTransaction({ signWith, unsignedTransaction, type: "TRANSACTION_TYPE_ETHEREUM" }));
  const typedData = {
    types: {
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "chainId", type: "uint256" },
      ],
      Note: [{ name: "text", type: "string" }],
    },
    primaryType: "Note",
    domain: { name: "console test", chainId: 1 },
    message: { text: `a note${marked}` },
  };
  await failedActivityId(
    asAlice.signRawPayload({
      signWith,
      payload: JSON.stringify(typedData),
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    }),
  );
  const { activities: failed } = await root.getActivities({ filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
  const byType = (type: string) => failed.find((activity) => activity.type === type)?.id as string;
  const pending = await asAlice.createWallet({ walletName: "alice's wallet", accounts: [ACCOUNT] });
  if (pending.activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") throw new Error("the wallet should wait");
  await root.createPolicy({
    policyName: "bob tags users",
    effect: "EFFECT_ALLOW",
    condition: "activity.resource == 'USER' && activity.action == 'CREATE'",
    consensus: `approvers.any(u, u.id == '${bob}')`,
    notes: "",
  });
  await root.createMfaPolicy({
    userId: bob,
    mfaPolicyName: "tags need a passkey",
    condition: "activity.resource == 'USER' && activity.action == 'CREATE'",
    requiredAuthenticationMethods: [
      { any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] },
      { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" }, { type: "AUTHENTICATION_TYPE_EMAIL_OTP" }] },
    ],
    order: 0,
  });
  const held = await client(bobKey).createUserTag({ userTagName: "reviewed", userIds: [] });
  if (held.activity.status !== "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED") throw new Error("the tag should wait for MFA");
  return {
    server,
    credentials,
    consoleUrl,
    users: { alice, bob },
    bobKey,
    deniedActivityId: byType("ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
    typedDataActivityId: byType("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"),
    pendingActivityId: pending.activity.id,
    mfaActivityId: held.activity.id,
    denyPolicyId,
    unsignedTransaction,
    client,
  };
}
