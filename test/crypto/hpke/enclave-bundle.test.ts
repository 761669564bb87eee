import { p256 } from "@noble/curves/nist.js";
import { verifyStampSignature } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { enclaveQuorumPublicKey, signEnclaveBundle } from "../../../src/crypto/hpke/index.js";
import { seededRandomBytes } from "./seeded-random.js";

const signerPrivateKey = p256.utils.randomSecretKey(seededRandomBytes("signer")(48));
const data = { targetPublic: "04ab", organizationId: "org-1", userId: "user-1" };

describe("signEnclaveBundle", () => {
  it("produces the v1.0.0 envelope with hex JSON data and the uncompressed signer key", () => {
    const bundle = JSON.parse(signEnclaveBundle({ data, signerPrivateKey }));
    expect(Object.keys(bundle)).toEqual(["version", "data", "dataSignature", "enclaveQuorumPublic"]);
    expect(bundle.version).toBe("v1.0.0");
    expect(bundle.data).toBe(bytesToHex(utf8ToBytes(JSON.stringify(data))));
    expect(bundle.enclaveQuorumPublic).toBe(bytesToHex(p256.getPublicKey(signerPrivateKey, false)));
    expect(bundle.enclaveQuorumPublic).toBe(enclaveQuorumPublicKey(signerPrivateKey));
  });

  it("signs the data bytes with ECDSA-P256-SHA256 in DER, as @turnkey/crypto verifies it", async () => {
    // Several keys, so DER integers with and without a 0x00 pad both occur.
    for (let i = 0; i < 16; i++) {
      const key = p256.utils.randomSecretKey(seededRandomBytes(`key-${i}`)(48));
      const bundle = JSON.parse(signEnclaveBundle({ data: { ...data, userId: `user-${i}` }, signerPrivateKey: key }));
      const json = new TextDecoder().decode(hexToBytes(bundle.data));
      expect(await verifyStampSignature(bundle.enclaveQuorumPublic, bundle.dataSignature, json)).toBe(true);
      expect(
        p256.verify(hexToBytes(bundle.dataSignature), hexToBytes(bundle.data), hexToBytes(bundle.enclaveQuorumPublic), {
          format: "der",
        }),
      ).toBe(true);
    }
  });

  it("is deterministic for the same data and key", () => {
    expect(signEnclaveBundle({ data, signerPrivateKey })).toBe(signEnclaveBundle({ data, signerPrivateKey }));
  });

  it.each([
    ["31 bytes", new Uint8Array(31).fill(1)],
    ["zero", new Uint8Array(32)],
    ["the group order", hexToBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")],
  ])("refuses a signer key of %s with INVALID_ARGUMENT naming signerPrivateKey", (_, key) => {
    const error = (() => {
      try {
        signEnclaveBundle({ data, signerPrivateKey: key });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe("INVALID_ARGUMENT");
    expect((error as CustodyError).field).toBe("signerPrivateKey");
  });
});
