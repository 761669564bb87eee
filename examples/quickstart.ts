/**
 * In-process quickstart: an engine, an organization, a sub-organization, and the activity log.
 * Run with `npm run example`.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { CustodyEngine, CustodyError } from "custodian";

const apiKey = () => bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true));

const engine = new CustodyEngine();

// The host bootstraps a top-level organization; its root user holds a P-256 API key.
const { organizationId, rootUserIds } = await engine.createOrganization({
  organizationName: "Acme",
  rootUsers: [
    { userName: "alice", apiKeys: [{ apiKeyName: "laptop", publicKey: apiKey(), curveType: "API_KEY_CURVE_P256" }] },
  ],
  rootQuorumThreshold: 1,
});

// Everything after that is an activity, submitted as a user.
const alice = engine.as({ userId: rootUserIds[0] as string });
const { activity } = await alice.createSubOrganization({
  organizationId,
  parameters: {
    subOrganizationName: "Customer 1",
    rootUsers: [
      {
        userName: "customer",
        apiKeys: [{ apiKeyName: "device", publicKey: apiKey(), curveType: "API_KEY_CURVE_P256" }],
        authenticators: [],
        oauthProviders: [],
      },
    ],
    rootQuorumThreshold: 1,
  },
});
console.log(activity.type, activity.status, activity.fingerprint);
console.log("result:", JSON.stringify(activity.result));

// Bad input is a typed error naming the field, and changes nothing.
try {
  await alice.createSubOrganization({
    organizationId,
    parameters: { subOrganizationName: "", rootUsers: [], rootQuorumThreshold: 1 },
  });
} catch (error) {
  if (!(error instanceof CustodyError)) throw error;
  console.log("refused:", error.code, error.details.field, "-", error.message);
}

const { activities } = await alice.getActivities({ organizationId });
console.log(`${activities.length} activity in the log; whoami:`, await alice.getWhoami({ organizationId }));
