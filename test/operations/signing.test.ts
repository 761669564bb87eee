import { sha256 as cosmosSha256, Secp256k1, Secp256k1Signature } from "@cosmjs/crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { PublicKey } from "@solana/web3.js";
import { hashMessage, recoverAddress, recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

type Signature = { r: string; s: string; v: string };

async function setup() {
  const fixture = await engineWithOrganization();
  const { root, organizationId } = fixture;
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "Signing",
      accounts: [
        ETHEREUM_ACCOUNT,
        SOLANA_ACCOUNT,
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/118'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_COSMOS",
        },
      ],
    },
  });
  const [ethAddress, solAddress, cosmosAddress] = (activity.result!.createWalletResult as { addresses: string[] })
    .addresses as [string, string, string];
  return { ...fixture, ethAddress, solAddress, cosmosAddress };
}

async function sign(
  root: CustodyEngine,
  organizationId: string,
  parameters: Parameters<CustodyEngine["signRawPayload"]>[0]["parameters"],
): Promise<Signature> {
  const { activity } = await root.signRawPayload({ organizationId, parameters });
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return activity.result!.signRawPayloadResult as Signature;
}

const hex = (s: Signature) => `0x${s.r}${s.s}${s.v === "00" ? "1b" : "1c"}` as const;

describe("sign_raw_payload", () => {
  it("signs an Ethereum digest that viem recovers to the account, by any spelling of the address", async () => {
    const { root, organizationId, ethAddress } = await setup();
    const digest = hashMessage("hello custodian");
    for (const signWith of [ethAddress, ethAddress.toLowerCase()]) {
      const signature = await sign(root, organizationId, {
        signWith,
        payload: digest,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      });
      expect(signature.r).toMatch(/^[0-9a-f]{64}$/);
      expect(signature.s).toMatch(/^[0-9a-f]{64}$/);
      expect(["00", "01"]).toContain(signature.v);
      expect(await recoverAddress({ hash: digest, signature: hex(signature) })).toBe(ethAddress);
    }
  });

  it("hashes EIP-712 typed data as viem does", async () => {
    const { root, organizationId, ethAddress } = await setup();
    const typedData = {
      domain: {
        name: "Mail",
        version: "1",
        chainId: 1,
        verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
      },
      types: {
        Person: [
          { name: "name", type: "string" },
          { name: "wallet", type: "address" },
        ],
        Mail: [
          { name: "from", type: "Person" },
          { name: "contents", type: "string" },
        ],
      },
      primaryType: "Mail",
      message: { from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" }, contents: "Hello" },
    } as const;
    const signature = await sign(root, organizationId, {
      signWith: ethAddress,
      payload: JSON.stringify(typedData),
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(await recoverTypedDataAddress({ ...typedData, signature: hex(signature) })).toBe(ethAddress);
  });

  it("signs a Solana message with ed25519 that verifies under the account's key", async () => {
    const { root, organizationId, solAddress } = await setup();
    const message = "gm solana";
    const signature = await sign(root, organizationId, {
      signWith: solAddress,
      payload: message,
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
    });
    expect(signature.v).toBe("00");
    const publicKey = new PublicKey(solAddress).toBytes();
    expect(
      ed25519.verify(Buffer.from(signature.r + signature.s, "hex"), new TextEncoder().encode(message), publicKey),
    ).toBe(true);
  });

  it("signs a Cosmos SHA-256 digest that @cosmjs verifies", async () => {
    const { root, organizationId, cosmosAddress } = await setup();
    const account = (await root.getWalletAccounts({ organizationId })).accounts.find(
      (a) => a.address === cosmosAddress,
    )!;
    const message = new TextEncoder().encode("cosmos sign doc");
    const signature = await sign(root, organizationId, {
      signWith: cosmosAddress,
      payload: Buffer.from(message).toString("hex"),
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    const ok = await Secp256k1.verifySignature(
      Secp256k1Signature.fromFixedLength(Buffer.from(signature.r + signature.s, "hex")),
      cosmosSha256(message),
      Buffer.from(account.publicKey as string, "hex"),
    );
    expect(ok).toBe(true);
  });

  it("signs with a private key by id or by its address", async () => {
    const { root, organizationId } = await setup();
    const { activity } = await root.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "hot",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
        ],
      },
    });
    const [{ privateKeyId, addresses }] = (
      activity.result!.createPrivateKeysResultV2 as {
        privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
      }
    ).privateKeys as [{ privateKeyId: string; addresses: { address: string }[] }];
    const digest = hashMessage("key");
    for (const signWith of [privateKeyId, addresses[0]!.address]) {
      const signature = await sign(root, organizationId, {
        signWith,
        payload: digest,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      });
      expect(await recoverAddress({ hash: digest, signature: hex(signature) })).toBe(addresses[0]!.address);
    }
  });
});

describe("sign_raw_payloads", () => {
  it("returns one signature per payload, in order", async () => {
    const { root, organizationId, ethAddress } = await setup();
    const digests = Array.from({ length: 100 }, (_, i) => hashMessage(`message ${i}`));
    const { activity } = await root.signRawPayloads({
      organizationId,
      parameters: {
        signWith: ethAddress,
        payloads: digests,
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    const { signatures } = activity.result!.signRawPayloadsResult as { signatures: Signature[] };
    expect(signatures).toHaveLength(100);
    for (const [i, signature] of signatures.entries()) {
      expect(await recoverAddress({ hash: digests[i]!, signature: hex(signature) })).toBe(ethAddress);
    }
  });

  it("refuses bad input, storing nothing but the FAILED activity", async () => {
    const { root, organizationId, ethAddress } = await setup();
    const other = await engineWithOrganization();
    const { activity: otherWallet } = await other.root.createWallet({
      organizationId: other.organizationId,
      parameters: {
        walletName: "x",
        accounts: [
          {
            curve: "CURVE_SECP256K1",
            pathFormat: "PATH_FORMAT_BIP32",
            path: "m/0",
            addressFormat: "ADDRESS_FORMAT_ETHEREUM",
          },
        ],
      },
    });
    const foreign = (otherWallet.result!.createWalletResult as { addresses: string[] }).addresses[0]!;
    const count = async () =>
      (await root.getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities.length;
    const base = {
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
      hashFunction: "HASH_FUNCTION_NO_OP" as const,
      signWith: ethAddress,
    };
    const digest = hashMessage("x");

    // Handler failures: one FAILED activity each.
    const handlerFailures: [Parameters<CustodyEngine["signRawPayload"]>[0]["parameters"], string, string][] = [
      [
        { ...base, signWith: "0x000000000000000000000000000000000000dEaD", payload: digest },
        "NOT_FOUND",
        "parameters.signWith",
      ],
      [{ ...base, signWith: foreign, payload: digest }, "NOT_FOUND", "parameters.signWith"],
      [{ ...base, payload: "0x1234" }, "INVALID_ARGUMENT", "parameters.payload"],
      [{ ...base, payload: "0x123" }, "INVALID_ARGUMENT", "parameters.payload"],
      [{ ...base, payload: "zz".repeat(32) }, "INVALID_ARGUMENT", "parameters.payload"],
      [
        { ...base, payload: digest, hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" },
        "INVALID_ARGUMENT",
        "parameters.hashFunction",
      ],
    ];
    let expected = await count();
    for (const [parameters, code, field] of handlerFailures) {
      await expectCustodyError(root.signRawPayload({ organizationId, parameters }), code, field);
      expected++;
      const failed = (
        await root.getActivities({
          organizationId,
          filterByStatus: ["ACTIVITY_STATUS_FAILED"],
          paginationOptions: { limit: "1" },
        })
      ).activities[0];
      expect(failed?.failure?.message).toBeDefined();
    }
    expect(await count()).toBe(expected);

    // Validation failures: nothing stored at all.
    await expectCustodyError(
      root.signRawPayloads({ organizationId, parameters: { ...base, payloads: [] } }),
      "INVALID_ARGUMENT",
      "parameters.payloads",
    );
    await expectCustodyError(
      root.signRawPayloads({
        organizationId,
        parameters: { ...base, payloads: Array.from({ length: 10_000 }, () => digest) },
      }),
      "INVALID_ARGUMENT",
      "parameters.payloads",
    );
    await expectCustodyError(
      root.signRawPayload({
        organizationId,
        parameters: { ...base, payload: digest, encoding: "PAYLOAD_ENCODING_BASE64" as "PAYLOAD_ENCODING_TEXT_UTF8" },
      }),
      "INVALID_ARGUMENT",
      "parameters.encoding",
    );
    expect(await count()).toBe(expected);

    // One bad payload fails the whole batch.
    await expectCustodyError(
      root.signRawPayloads({ organizationId, parameters: { ...base, payloads: [digest, "0x12", digest] } }),
      "INVALID_ARGUMENT",
      "parameters.payloads[1]",
    );
  });
});
