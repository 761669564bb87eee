/**
 * Errors a person can act on, as the official clients show them: a mistyped enum value names the field and
 * a few close values, a wrong organization id says the organization is unknown to the credential, and an
 * operation custodian does not serve answers 501 naming it, unlike a path that is no operation (404).
 */
import { Turnkey } from "@turnkey/sdk-server";
import { afterEach, describe, expect, it } from "vitest";
import { HOSTED_API_PATHS } from "../../src/http/generated/hosted-api-paths.js";
import { unservedGroup } from "../../src/http/unserved-operations.js";
import { OPERATIONS, urlPathOf } from "../../src/index.js";
import { createTestOrganization, generateApiKeyPair, stampWithApiKey } from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { requestRejection as rejection } from "../support/session-client.js";

let restoreFetch: (() => void) | undefined;
afterEach(() => {
  restoreFetch?.();
  restoreFetch = undefined;
});

const account = (addressFormat: string) => ({
  curve: "CURVE_SECP256K1" as const,
  pathFormat: "PATH_FORMAT_BIP32" as const,
  path: "m/44'/60'/0'/0/0",
  addressFormat: addressFormat as "ADDRESS_FORMAT_ETHEREUM",
});

describe("a bad enum value", () => {
  it("names the field and the closest accepted values, in a short message", async () => {
    const org = await createTestOrganization();
    restoreFetch = org.installGlobalFetch();
    const client = new Turnkey(org.turnkeyConfig).apiClient();
    const error = await rejection(
      client.createWallet({ walletName: "w", accounts: [account("ADDRESS_FORMAT_ETHEREM")] }),
    );
    expect(error.message).toContain(
      'parameters.accounts[0].addressFormat: "ADDRESS_FORMAT_ETHEREM" is not an accepted value',
    );
    // The client appends the error details (which repeat the message for the field); ours is the rest.
    const [ours] = error.message.split(" (Details:");
    expect(ours).toMatch(/did you mean ADDRESS_FORMAT_ETHEREUM\?$/);
    expect(ours?.length).toBeLessThan(200);
  });

  it("lists at most three candidates, and a few examples when none is close", async () => {
    const org = await createTestOrganization();
    const near = await expectCustodyError(
      org.root.createWallet({
        organizationId: org.organizationId,
        parameters: { walletName: "w", accounts: [account("ADDRESS_FORMAT_BITCOIN_MAINNET_P2")] },
      }),
      "INVALID_ARGUMENT",
      "parameters.accounts[0].addressFormat",
    );
    const candidates = near.message.split("did you mean ")[1]?.replace("?", "").split(" or ") ?? [];
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThanOrEqual(3);
    for (const candidate of candidates) expect(candidate).toMatch(/^ADDRESS_FORMAT_BITCOIN_MAINNET_P2/);
    const far = await expectCustodyError(
      org.root.createWallet({
        organizationId: org.organizationId,
        parameters: { walletName: "w", accounts: [account("lizard")] },
      }),
      "INVALID_ARGUMENT",
      "parameters.accounts[0].addressFormat",
    );
    expect(far.message).toMatch(/"lizard" is not an accepted value \(one of \d+, e\.g\. ADDRESS_FORMAT_/);
    expect(far.message.length).toBeLessThan(300);
  });

  it("says a value is missing without listing every accepted one", async () => {
    const org = await createTestOrganization();
    const { addressFormat: _, ...withoutFormat } = account("ADDRESS_FORMAT_ETHEREUM");
    const error = await expectCustodyError(
      org.root.createWallet({
        organizationId: org.organizationId,
        parameters: { walletName: "w", accounts: [withoutFormat as ReturnType<typeof account>] },
      }),
      "INVALID_ARGUMENT",
      "parameters.accounts[0].addressFormat",
    );
    expect(error.message).toMatch(/^parameters\.accounts\[0\]\.addressFormat: .*\(missing\)$/);
    expect(error.message.length).toBeLessThan(300);
  });
});

describe("a wrong organization id", () => {
  it("says the organization is unknown to this credential and names the key's own", async () => {
    const org = await createTestOrganization();
    const other = await org.engine.createOrganization({
      organizationName: "Other",
      rootUsers: [
        {
          userName: "x",
          apiKeys: [{ apiKeyName: "k", publicKey: generateApiKeyPair().apiPublicKey, curveType: "API_KEY_CURVE_P256" }],
        },
      ],
    });
    restoreFetch = org.installGlobalFetch();
    for (const organizationId of [other.organizationId, "00000000-0000-7000-8000-000000000000"]) {
      const client = new Turnkey({ ...org.turnkeyConfig, defaultOrganizationId: organizationId }).apiClient();
      const error = await rejection(client.getWhoami());
      expect(error.code).toBe(16);
      expect(error.message).toContain(`organization ${organizationId} is unknown to this credential`);
      expect(error.message).toContain(`belongs to organization ${org.organizationId}`);
      expect(JSON.stringify(error.details)).toContain('"field":"organizationId"');
    }
  });

  it("tells nothing about where a key lives to a stamp that does not verify", async () => {
    const org = await createTestOrganization();
    const body = JSON.stringify({ organizationId: "00000000-0000-7000-8000-000000000000" });
    const forged = stampWithApiKey(body, { ...generateApiKeyPair(), apiPublicKey: org.apiKey.apiPublicKey });
    const response = await org.fetch(`${org.baseUrl}/public/v1/query/whoami`, {
      method: "POST",
      body,
      headers: { "X-Stamp": forged.stampHeaderValue },
    });
    expect(response.status).toBe(401);
    const answer = (await response.json()) as { message: string };
    expect(answer.message).toBe("could not find public key in organization or its parent organization");
    expect(JSON.stringify(answer)).not.toContain(org.organizationId);
  });
});

describe("an operation custodian does not serve", () => {
  const served = new Set(OPERATIONS.map(urlPathOf));
  const unserved = [...HOSTED_API_PATHS].find((path) => !served.has(`/public/v1/${path}`)) as string;

  it("answers UNIMPLEMENTED (501) naming it, before authenticating", async () => {
    const org = await createTestOrganization();
    const response = await org.fetch(`${org.baseUrl}/public/v1/${unserved}`, { method: "POST", body: "{}" });
    expect(response.status).toBe(501);
    const answer = (await response.json()) as { code: number; message: string };
    expect(answer.code).toBe(12);
    expect(answer.message).toContain(`custodian does not serve ${unserved}`);
  });

  it("says why, by the group the operation belongs to", async () => {
    const org = await createTestOrganization();
    const why = async (path: string) => {
      const response = await org.fetch(`${org.baseUrl}/public/v1/${path}`, { method: "POST", body: "{}" });
      expect(response.status).toBe(501);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await why("submit/create_tvc_app")).toMatch(/verifiable cloud apps \(TVC\).*runs in no enclave/);
    expect(await why("submit/execute_swap")).toMatch(/swaps\): they quote and execute swaps/);
    expect(await why("query/list_earn_enabled_vaults")).toMatch(/earn\): they move funds into yield vaults/);
    // Every operation of the description that custodian refuses today is refused for a reason it names: one
    // that falls in no group would be a feature a local engine could serve, to be served or grouped.
    const ungrouped = [...HOSTED_API_PATHS].filter(
      (path) => !served.has(`/public/v1/${path}`) && unservedGroup(path).name === "not served yet",
    );
    expect(ungrouped).toEqual([]);
  });

  it("answers a path that is no operation with 404", async () => {
    const org = await createTestOrganization();
    const response = await org.fetch(`${org.baseUrl}/public/v1/submit/no_such_operation`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: number }).code).toBe(5);
  });

  it("serves every row of the table at a path of the hosted API, but those the description gives no route", () => {
    for (const operation of OPERATIONS) {
      const listed = HOSTED_API_PATHS.has(urlPathOf(operation).replace("/public/v1/", ""));
      const unlisted = operation.kind === "activity" && operation.unlistedRoute === true;
      expect(listed, urlPathOf(operation)).toBe(!unlisted);
    }
  });
});
