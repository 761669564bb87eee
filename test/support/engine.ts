/**
 * Test fixtures: an engine with one organization whose root user holds a real P-256 API key.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { CustodyEngine, type CustodyEngineOptions } from "../../src/index.js";

export interface ApiKeyPair {
  publicKey: string;
  privateKey: string;
}

export function p256KeyPair(): ApiKeyPair {
  const secret = p256.utils.randomSecretKey();
  return { publicKey: bytesToHex(p256.getPublicKey(secret, true)), privateKey: bytesToHex(secret) };
}

export async function engineWithOrganization(options: CustodyEngineOptions = {}) {
  const engine = new CustodyEngine(options);
  const rootKey = p256KeyPair();
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: "Acme",
    rootUsers: [
      {
        userName: "root",
        userEmail: "root@acme.test",
        apiKeys: [{ apiKeyName: "root key", publicKey: rootKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
      },
    ],
    rootQuorumThreshold: 1,
  });
  const rootUserId = rootUserIds[0] as string;
  return { engine, organizationId, rootUserId, rootKey, root: engine.as({ userId: rootUserId }) };
}

/** Parameters of a sub-organization with one root user holding a fresh P-256 key. */
export function subOrganizationParameters(name = "Sub", key: ApiKeyPair = p256KeyPair()) {
  return {
    subOrganizationName: name,
    rootUsers: [
      {
        userName: `${name} root`,
        apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" as const }],
        authenticators: [],
        oauthProviders: [],
      },
    ],
    rootQuorumThreshold: 1,
  };
}
