/**
 * Secrets through the official clients: `@turnkey/http`'s `initImportSecrets` (the installed sdk-server has no
 * such method) and `@turnkey/sdk-server`'s `importSecrets`, `exportSecrets` and `listSecrets` over HTTP, with `@turnkey/crypto`'s `encryptSecretToBundle` sealing each
 * secret to an ingress target and `decryptSecretBundle` opening each export. Policies judge each exported
 * secret by its static properties and a batch goes all or nothing; ingress targets are single-use and the
 * submitter's own; every refusal leaves the store as it was. Every answer is held to the API description.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { decryptSecretBundle, encryptSecretToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPolicy, organizationWithMembers } from "../support/consensus.js";
import { departuresFromDescription } from "../support/described-answer.js";
import { type RunningServer, serve } from "../support/server.js";
import { reasonOf, requestRejection } from "../support/session-client.js";

const SUITE = "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1" as const;

let fixture: Awaited<ReturnType<typeof organizationWithMembers<"agent">>>;
let server: RunningServer;
let signerPublicKey: string;
let root: Clients;
let agent: Clients;

type Clients = ReturnType<typeof client>;

/** One user's two official clients: sdk-server's API client, with @turnkey/http's for `initImportSecrets`. */
function client(key: { publicKey: string; privateKey: string }) {
  const sdk = new Turnkey({
    apiBaseUrl: server.baseUrl,
    apiPublicKey: key.publicKey,
    apiPrivateKey: key.privateKey,
    defaultOrganizationId: fixture.organizationId,
  }).apiClient();
  const http = new TurnkeyClient(
    { baseUrl: server.baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
  const initImportSecrets = async (parameters: { encryptionSuite: typeof SUITE; numSecrets: number }) => {
    const { activity } = await http.initImportSecrets({
      type: "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters,
    });
    expect(departuresFromDescription("/public/v1/submit/init_import_secrets", { activity })).toEqual([]);
    return activity.result.initImportSecretsResult!;
  };
  return Object.assign(sdk, { initImportSecrets });
}

beforeAll(async () => {
  fixture = await organizationWithMembers(["agent"] as const);
  server = await serve(fixture.engine);
  signerPublicKey = await fixture.engine.signerPublicKey();
  root = client(fixture.rootKey);
  agent = client(fixture.members.agent.key);
});

afterAll(async () => {
  await server?.close();
});

/** Asks `tk` for `count` ingress targets and seals each plaintext to one, as the SDK's importSecret does. */
async function sealSecrets(tk: typeof root, plaintexts: string[]) {
  const init = await tk.initImportSecrets({ encryptionSuite: SUITE, numSecrets: plaintexts.length });
  expect(init.enclaveTargetMessages).toHaveLength(plaintexts.length);
  return Promise.all(
    plaintexts.map((plaintext, i) =>
      encryptSecretToBundle({
        plaintext,
        ingressTargetBundle: init.enclaveTargetMessages[i]!,
        organizationId: fixture.organizationId,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
      }),
    ),
  );
}

async function exportAndOpen(tk: typeof root, secretIds: string[]) {
  const key = generateP256KeyPair();
  const { secretPayloads } = await tk.exportSecrets({
    secrets: secretIds.map((secretId) => ({
      secretId,
      targetPublicKey: key.publicKeyUncompressed,
      encryptionSuite: SUITE,
    })),
  });
  return Promise.all(
    secretPayloads.map((secretPayload) =>
      decryptSecretBundle({
        secretPayload,
        embeddedPrivateKey: key.privateKey,
        organizationId: fixture.organizationId,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
      }),
    ),
  );
}

async function listed() {
  const answer = await root.listSecrets({ paginationOptions: { limit: "100" } });
  expect(departuresFromDescription("/public/v1/query/list_secrets", answer)).toEqual([]);
  return answer.secrets;
}

describe("secrets", () => {
  let cardId: string;
  let tokenId: string;
  const card = JSON.stringify({ number: "4242424242424242", exp: "11/29", cvv: "123" });
  const token = "sk_live_ünïcode-token";

  it("import through ingress targets, list metadata newest first, export and open", async () => {
    const [sealedCard, sealedToken] = await sealSecrets(root, [card, token]);
    const imported = await root.importSecrets({
      secrets: [
        {
          name: "corporateVisa",
          ...sealedCard!,
          encryptionSuite: SUITE,
          staticProperties: [{ key: "kind", value: "creditCard" }],
        },
        { ...sealedToken!, encryptionSuite: SUITE },
      ],
    });
    expect(imported.secretIds).toHaveLength(2);
    [cardId, tokenId] = imported.secretIds as [string, string];
    const activity = await root.getActivity({ activityId: imported.activity.id });
    expect(departuresFromDescription("/public/v1/query/get_activity", activity)).toEqual([]);
    expect(JSON.stringify(activity)).not.toContain("4242424242424242");

    const secrets = await listed();
    expect(secrets.map((s) => s.secretId).sort()).toEqual([cardId, tokenId].sort());
    const cardMeta = secrets.find((s) => s.secretId === cardId)!;
    expect(cardMeta).toMatchObject({ name: "corporateVisa", staticProperties: [{ key: "kind", value: "creditCard" }] });
    expect(JSON.stringify(secrets)).not.toContain("4242");

    expect(await exportAndOpen(root, [tokenId, cardId])).toEqual([token, card]);
    const page = await root.listSecrets({ paginationOptions: { limit: "1" } });
    expect(page.secrets).toHaveLength(1);
    const next = await root.listSecrets({ paginationOptions: { limit: "1", after: page.secrets[0]!.secretId } });
    expect(next.secrets).toHaveLength(1);
    expect(next.secrets[0]!.secretId).not.toBe(page.secrets[0]!.secretId);
  });

  it("an export answer conforms to the description", async () => {
    const key = generateP256KeyPair();
    const body = {
      type: "ACTIVITY_TYPE_EXPORT_SECRETS" as const,
      timestampMs: String(Date.now()),
      organizationId: fixture.organizationId,
      parameters: {
        secrets: [{ secretId: tokenId, targetPublicKey: key.publicKeyUncompressed, encryptionSuite: SUITE }],
      },
    };
    const { activity } = await fixture.root.exportSecrets(body);
    expect(departuresFromDescription("/public/v1/submit/export_secrets", { activity })).toEqual([]);
  });

  it("policies judge each secret by its static properties, and a batch goes all or nothing", async () => {
    await addPolicy(fixture.root, fixture.organizationId, {
      policyName: "agent exports cards",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${fixture.members.agent.userId}')`,
      condition: "activity.type == 'ACTIVITY_TYPE_EXPORT_SECRETS' && secret.static_properties['kind'] == 'creditCard'",
    });
    expect(await exportAndOpen(agent, [cardId])).toEqual([card]);
    const batch = await requestRejection(exportAndOpen(agent, [cardId, tokenId]));
    expect(batch.code).toBe(7);
  });

  it("an ingress target takes one secret, from the user who asked for it", async () => {
    const before = await listed();
    const [sealed] = await sealSecrets(root, ["once"]);
    await root.importSecrets({ secrets: [{ ...sealed!, encryptionSuite: SUITE }] });
    const again = await requestRejection(root.importSecrets({ secrets: [{ ...sealed!, encryptionSuite: SUITE }] }));
    expect(reasonOf(again)).toBe("IMPORT_TARGET_NOT_FOUND");

    await addPolicy(fixture.root, fixture.organizationId, {
      policyName: "agent imports",
      effect: "EFFECT_ALLOW",
      condition:
        "activity.type == 'ACTIVITY_TYPE_IMPORT_SECRETS' || activity.type == 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS'",
    });
    const [rootsTarget] = await sealSecrets(root, ["not yours"]);
    const stolen = await requestRejection(
      agent.importSecrets({ secrets: [{ ...rootsTarget!, encryptionSuite: SUITE }] }),
    );
    expect(reasonOf(stolen)).toBe("IMPORT_TARGET_NOT_FOUND");
    expect((await listed()).length).toBe(before.length + 1);
  });

  it("refuses bad imports, naming the field, and changes nothing", async () => {
    const before = await listed();
    const [a, b] = await sealSecrets(root, ["a", "b"]);
    const tampered = JSON.parse(a!.secretPayload) as { ciphertext: string };
    tampered.ciphertext = `${tampered.ciphertext.slice(0, -2)}${tampered.ciphertext.endsWith("00") ? "01" : "00"}`;
    const cases: [unknown[], string][] = [
      [
        [
          {
            ...a!,
            secretPayload: JSON.stringify({ ...JSON.parse(a!.secretPayload), ...tampered }),
            encryptionSuite: SUITE,
          },
        ],
        "secretPayload",
      ],
      [[{ ...a!, name: "corporateVisa", encryptionSuite: SUITE }], "name"],
      [
        [
          { ...a!, name: "twin", encryptionSuite: SUITE },
          { ...b!, name: "twin", encryptionSuite: SUITE },
        ],
        "name",
      ],
      [
        [
          { ...a!, encryptionSuite: SUITE },
          { ...a!, encryptionSuite: SUITE },
        ],
        "targetPublicKey",
      ],
      [[{ ...a!, targetPublicKey: "04abcd", encryptionSuite: SUITE }], "targetPublicKey"],
      [[{ ...a!, encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_OTHER" }], "encryptionSuite"],
      [
        [
          {
            ...a!,
            encryptionSuite: SUITE,
            staticProperties: [
              { key: "k", value: "1" },
              { key: "k", value: "2" },
            ],
          },
        ],
        "staticProperties[1].key",
      ],
      [[], "secrets"],
    ];
    for (const [secrets, field] of cases) {
      const error = await requestRejection(root.importSecrets({ secrets: secrets as never }));
      expect(error.message, field).toContain(field);
    }
    expect(await listed()).toEqual(before);
    // The targets survived every refusal: the honest import still goes through.
    const ok = await root.importSecrets({
      secrets: [
        { ...a!, encryptionSuite: SUITE },
        { ...b!, encryptionSuite: SUITE },
      ],
    });
    expect(ok.secretIds).toHaveLength(2);
  });

  it("refuses bad inits and exports", async () => {
    for (const numSecrets of [0, 101]) {
      const error = await requestRejection(root.initImportSecrets({ encryptionSuite: SUITE, numSecrets }));
      expect(error.message).toContain("numSecrets");
    }
    const key = generateP256KeyPair();
    const missing = await requestRejection(
      root.exportSecrets({
        secrets: [
          { secretId: crypto.randomUUID(), targetPublicKey: key.publicKeyUncompressed, encryptionSuite: SUITE },
        ],
      }),
    );
    expect(missing.code).toBe(5);
    const badKey = await requestRejection(
      root.exportSecrets({ secrets: [{ secretId: cardId, targetPublicKey: "zz", encryptionSuite: SUITE }] }),
    );
    expect(badKey.code).toBe(3);
  });
});
