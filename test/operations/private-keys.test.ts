import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { PublicKey } from "@solana/web3.js";
import { publicKeyToAddress } from "viem/utils";
import { describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

type KeyResult = { privateKeyId: string; addresses: { format: string; address: string }[] };

async function createKeys(
  root: CustodyEngine,
  organizationId: string,
  privateKeys: Parameters<CustodyEngine["createPrivateKeys"]>[0]["parameters"]["privateKeys"],
) {
  const { activity } = await root.createPrivateKeys({ organizationId, parameters: { privateKeys } });
  return (activity.result!.createPrivateKeysResultV2 as { privateKeys: KeyResult[] }).privateKeys;
}

async function newTag(
  root: CustodyEngine,
  organizationId: string,
  privateKeyTagName: string,
  privateKeyIds: string[] = [],
) {
  const { activity } = await root.createPrivateKeyTag({
    organizationId,
    parameters: { privateKeyTagName, privateKeyIds },
  });
  return (activity.result!.createPrivateKeyTagResult as { privateKeyTagId: string }).privateKeyTagId;
}

describe("private keys", () => {
  it("creates secp256k1 and ed25519 keys whose addresses the chain libraries derive from the public key", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const [evm, sol] = await createKeys(root, organizationId, [
      {
        privateKeyName: "evm",
        curve: "CURVE_SECP256K1",
        privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_COMPRESSED"],
      },
      { privateKeyName: "sol", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
    ]);
    const { privateKey } = await root.getPrivateKey({ organizationId, privateKeyId: evm!.privateKeyId });
    expect(privateKey).toMatchObject({
      privateKeyName: "evm",
      curve: "CURVE_SECP256K1",
      exported: false,
      imported: false,
      privateKeyTags: [],
    });
    const uncompressed = bytesToHex(secp256k1.Point.fromHex(privateKey.publicKey).toBytes(false));
    expect(privateKey.addresses[0]).toEqual({
      format: "ADDRESS_FORMAT_ETHEREUM",
      address: publicKeyToAddress(`0x${uncompressed}`),
    });
    expect(privateKey.addresses[1]).toEqual({ format: "ADDRESS_FORMAT_COMPRESSED", address: privateKey.publicKey });
    const solKey = (await root.getPrivateKey({ organizationId, privateKeyId: sol!.privateKeyId })).privateKey;
    expect(solKey.addresses[0]?.address).toBe(new PublicKey(Buffer.from(solKey.publicKey, "hex")).toBase58());
    expect((await root.getPrivateKeys({ organizationId })).privateKeys.map((k) => k.privateKeyName)).toEqual([
      "evm",
      "sol",
    ]);
    expect((await root.getOrganization({ organizationId })).organizationData.privateKeys).toHaveLength(2);
  });

  it("refuses duplicates, unknown tags and curve/format mismatches (a P-256 Ethereum address), creating none of the batch", async () => {
    const { root, organizationId } = await engineWithOrganization();
    await createKeys(root, organizationId, [
      { privateKeyName: "k", curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: [] },
    ]);
    const good = { privateKeyName: "ok", curve: "CURVE_SECP256K1" as const, privateKeyTags: [], addressFormats: [] };
    await expectCustodyError(
      createKeys(root, organizationId, [good, { ...good, privateKeyName: "k" }]),
      "ALREADY_EXISTS",
      "parameters.privateKeys[1].privateKeyName",
    );
    await expectCustodyError(
      createKeys(root, organizationId, [good, { ...good, privateKeyName: "ok" }]),
      "ALREADY_EXISTS",
      "parameters.privateKeys[1].privateKeyName",
    );
    await expectCustodyError(
      createKeys(root, organizationId, [{ ...good, privateKeyTags: ["missing"] }]),
      "NOT_FOUND",
      "parameters.privateKeys[0].privateKeyTags[0]",
    );
    await expectCustodyError(
      createKeys(root, organizationId, [
        { ...good, curve: "CURVE_ED25519", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] },
      ]),
      "INVALID_ARGUMENT",
      "parameters.privateKeys[0].addressFormats[0]",
    );
    await expectCustodyError(
      createKeys(root, organizationId, [
        { ...good, curve: "CURVE_P256", addressFormats: ["ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_ETHEREUM"] },
      ]),
      "INVALID_ARGUMENT",
      "parameters.privateKeys[0].addressFormats[1]",
    );
    await expectCustodyError(createKeys(root, organizationId, []), "INVALID_ARGUMENT", "parameters.privateKeys");
    expect((await root.getPrivateKeys({ organizationId })).privateKeys.map((k) => k.privateKeyName)).toEqual(["k"]);
  });
});

describe("private key tags", () => {
  it("creates, updates atomically and deletes tags, keeping keys' tag lists in step", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const [a, b, c] = await createKeys(
      root,
      organizationId,
      ["a", "b", "c"].map((privateKeyName) => ({
        privateKeyName,
        curve: "CURVE_SECP256K1" as const,
        privateKeyTags: [],
        addressFormats: [],
      })),
    );
    const hot = await newTag(root, organizationId, "hot", [a!.privateKeyId]);
    expect(
      (await root.getPrivateKey({ organizationId, privateKeyId: a!.privateKeyId })).privateKey.privateKeyTags,
    ).toEqual([hot]);
    const tagged = await createKeys(root, organizationId, [
      { privateKeyName: "d", curve: "CURVE_SECP256K1", privateKeyTags: [hot], addressFormats: [] },
    ]);

    await root.updatePrivateKeyTag({
      organizationId,
      parameters: {
        privateKeyTagId: hot,
        newPrivateKeyTagName: "warm",
        addPrivateKeyIds: [b!.privateKeyId],
        removePrivateKeyIds: [a!.privateKeyId],
      },
    });
    const tags = (await root.listPrivateKeyTags({ organizationId })).privateKeyTags;
    expect(tags).toEqual([expect.objectContaining({ tagId: hot, tagName: "warm", tagType: "TAG_TYPE_PRIVATE_KEY" })]);
    const tagsOf = async (id: string) =>
      (await root.getPrivateKey({ organizationId, privateKeyId: id })).privateKey.privateKeyTags;
    expect(await tagsOf(a!.privateKeyId)).toEqual([]);
    expect(await tagsOf(b!.privateKeyId)).toEqual([hot]);

    // One unknown id refuses the whole update: no rename, no add, no remove.
    await expectCustodyError(
      root.updatePrivateKeyTag({
        organizationId,
        parameters: {
          privateKeyTagId: hot,
          newPrivateKeyTagName: "cold",
          addPrivateKeyIds: [c!.privateKeyId, "nope"],
          removePrivateKeyIds: [b!.privateKeyId],
        },
      }),
      "NOT_FOUND",
      "parameters.addPrivateKeyIds[1]",
    );
    expect((await root.listPrivateKeyTags({ organizationId })).privateKeyTags[0]?.tagName).toBe("warm");
    expect(await tagsOf(c!.privateKeyId)).toEqual([]);
    expect(await tagsOf(b!.privateKeyId)).toEqual([hot]);
    await expectCustodyError(newTag(root, organizationId, "warm"), "ALREADY_EXISTS", "parameters.privateKeyTagName");

    const { activity } = await root.deletePrivateKeyTags({ organizationId, parameters: { privateKeyTagIds: [hot] } });
    const result = activity.result!.deletePrivateKeyTagsResult as {
      privateKeyTagIds: string[];
      privateKeyIds: string[];
    };
    expect(result.privateKeyTagIds).toEqual([hot]);
    expect(result.privateKeyIds.sort()).toEqual([b!.privateKeyId, tagged[0]!.privateKeyId].sort());
    expect((await root.listPrivateKeyTags({ organizationId })).privateKeyTags).toEqual([]);
    expect(await tagsOf(b!.privateKeyId)).toEqual([]);
    await expectCustodyError(
      root.deletePrivateKeyTags({ organizationId, parameters: { privateKeyTagIds: [hot] } }),
      "NOT_FOUND",
      "parameters.privateKeyTagIds[0]",
    );
  });
});
