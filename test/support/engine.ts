/**
 * Test fixtures over the public kit (`custodian/testing`): an engine with one organization, "Acme", whose root
 * user holds a real P-256 API key. The kit keeps snapshots, so it takes only a MemoryStore; a fixture on another
 * store (PostgreSQL, a file) builds the same organization on it.
 */
import { CustodyEngine, type CustodyEngineOptions, MemoryStore } from "../../src/index.js";
import { createTestOrganization, generateApiKeyPair } from "../../src/testing/index.js";

/** An API key as these fixtures name it (the kit's `ApiKeyPair` says `apiPublicKey` / `apiPrivateKey`). */
export interface ApiKeyPair {
  publicKey: string;
  privateKey: string;
}

export function p256KeyPair(): ApiKeyPair {
  const { apiPublicKey, apiPrivateKey } = generateApiKeyPair();
  return { publicKey: apiPublicKey, privateKey: apiPrivateKey };
}

const ORGANIZATION = { organizationName: "Acme", rootUserName: "root", rootUserEmail: "root@acme.test" } as const;

export async function engineWithOrganization(options: CustodyEngineOptions = {}) {
  const { store, ...engineOptions } = options;
  if (store === undefined || store instanceof MemoryStore) {
    const org = await createTestOrganization({ ...ORGANIZATION, engine: { ...engineOptions, store } });
    const rootKey = { publicKey: org.apiKey.apiPublicKey, privateKey: org.apiKey.apiPrivateKey };
    return {
      engine: org.engine,
      organizationId: org.organizationId,
      rootUserId: org.rootUserId,
      rootKey,
      root: org.root,
    };
  }
  const engine = new CustodyEngine(options);
  const rootKey = p256KeyPair();
  const { organizationId, rootUserIds } = await engine.createOrganization({
    organizationName: ORGANIZATION.organizationName,
    rootUsers: [
      {
        userName: ORGANIZATION.rootUserName,
        userEmail: ORGANIZATION.rootUserEmail,
        apiKeys: [{ apiKeyName: "root", publicKey: rootKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
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
