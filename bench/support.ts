/**
 * Fixtures the benchmarks share: an organization whose non-root member signs, allowed by one policy among
 * `policies`, as a real deployment does it (root users govern, members sign under policy).
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { CustodyEngine, type CustodyEngineOptions } from "../dist/index.js";

/** A fresh compressed P-256 API key pair, hex. */
export function apiKeyPair(): { publicKey: string; privateKey: string } {
  const secret = p256.utils.randomSecretKey();
  return { privateKey: bytesToHex(secret), publicKey: bytesToHex(p256.getPublicKey(secret, true)) };
}

/** An organization named "bench" with one root user holding a fresh P-256 API key, and the engine acting as it. */
export async function benchOrganization(
  engine: CustodyEngine,
): Promise<{ organizationId: string; rootUserId: string; root: CustodyEngine }> {
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "bench",
    rootUsers: [
      {
        userName: "root",
        apiKeys: [{ apiKeyName: "root", publicKey: apiKeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
  });
  const rootUserId = rootUserIds[0] as string;
  return { organizationId, rootUserId, root: engine.as({ userId: rootUserId }) };
}

/** What {@link signingOrganization} builds. */
export interface SigningOrganization {
  engine: CustodyEngine;
  organizationId: string;
  rootUserId: string;
  signerUserId: string;
  signerKey: { publicKey: string; privateKey: string };
  /** The engine acting as the signing member. */
  signer: CustodyEngine;
  root: CustodyEngine;
  ethereumAddress: string;
  solanaAddress: string;
}

/**
 * The condition of policy `n` of an organization, naming `walletId`: the shapes conditions are written in. Each
 * policy but the allowing one names a wallet of its own, so it is judged and does not apply.
 */
export type ConditionShape = (n: number, walletId: string) => string;

/** Equality tests joined by `&&`. */
export const EQUALITY_CONDITION: ConditionShape = (_n, walletId) =>
  `activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && wallet.id == '${walletId}'`;

/** `activity.type in [...]` beside an equality test. */
export const IN_CONDITION: ConditionShape = (_n, walletId) =>
  `activity.type in ['ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS'] && wallet.id == '${walletId}'`;

/** `&&` and `||` nested three deep, with `!`. */
export const NESTED_CONDITION: ConditionShape = (n, walletId) =>
  `(activity.resource == 'PRIVATE_KEY' || activity.resource == 'WALLET_ACCOUNT') && (activity.action == 'SIGN' && (wallet.id == '${walletId}' || (wallet.id == 'cold-${n}' && !(activity.action == 'EXPORT'))))`;

/** An `eth.tx` limit: for `sign_transaction` activities only (elsewhere `eth` is absent and the policy fails). */
export const ETH_TX_CONDITION: ConditionShape = (n, walletId) =>
  `activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.value < ${(n + 1) * 10 ** 18} && eth.tx.chain_id in [1, 10, 8453] && wallet.id == '${walletId}'`;

/** The four shapes in turn (`eth.tx` included: for `sign_transaction` activities only). */
export const MIXED_CONDITION: ConditionShape = (n, walletId) =>
  [EQUALITY_CONDITION, IN_CONDITION, NESTED_CONDITION, ETH_TX_CONDITION][n % 4]!(n, walletId);

/**
 * An organization with a root user and a member `signer`, a wallet with one Ethereum and one Solana account,
 * and `policies` policies of which exactly one lets the signer sign with that wallet; the others allow other
 * members on other wallets, so each is evaluated and none applies. `policies` 0 leaves the signer with no
 * policy: only the root user can then sign. `condition` gives each policy's condition.
 */
export async function signingOrganization(
  policies: number,
  options: CustodyEngineOptions = {},
  condition: ConditionShape = EQUALITY_CONDITION,
): Promise<SigningOrganization> {
  const engine = new CustodyEngine(options);
  const { organizationId, rootUserId, root } = await benchOrganization(engine);
  const signerKey = apiKeyPair();
  const { activity: users } = await root.createUsers({
    organizationId,
    parameters: {
      users: [
        {
          userName: "signer",
          apiKeys: [{ apiKeyName: "signer", publicKey: signerKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    },
  });
  const signerUserId = ((users.result as Record<string, unknown>).createUsersResult as { userIds: string[] })
    .userIds[0] as string;
  const { activity: created } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "hot",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
        {
          curve: "CURVE_ED25519",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/501'/0'/0'",
          addressFormat: "ADDRESS_FORMAT_SOLANA",
        },
      ],
    },
  });
  const { walletId, addresses } = (created.result as Record<string, unknown>).createWalletResult as {
    walletId: string;
    addresses: string[];
  };
  for (let n = 0; n < policies; n++) {
    // The allowing policy comes last, so every other policy is evaluated before it.
    const allows = n === policies - 1;
    await root.createPolicy({
      organizationId,
      parameters: {
        policyName: allows ? "signer signs with the hot wallet" : `member ${n} signs with wallet ${n}`,
        effect: "EFFECT_ALLOW",
        consensus: allows
          ? `approvers.any(user, user.id == '${signerUserId}')`
          : `approvers.any(user, user.id == 'member-${n}')`,
        condition: condition(n, allows ? walletId : `wallet-${n}`),
        notes: "",
      },
    });
  }
  return {
    engine,
    organizationId,
    rootUserId,
    signerUserId,
    signerKey,
    signer: engine.as({ userId: signerUserId }),
    root,
    ethereumAddress: addresses[0] as string,
    solanaAddress: addresses[1] as string,
  };
}

/** `sign_raw_payload` parameters for a 32-byte digest (secp256k1) or a UTF-8 message (ed25519). */
export const DIGEST = "0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658";
export const MESSAGE = "bench message for ed25519 signing";

export function digestParameters(signWith: string) {
  return {
    signWith,
    payload: DIGEST,
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
    hashFunction: "HASH_FUNCTION_NO_OP" as const,
  };
}

export function messageParameters(signWith: string) {
  return {
    signWith,
    payload: MESSAGE,
    encoding: "PAYLOAD_ENCODING_TEXT_UTF8" as const,
    hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" as const,
  };
}
