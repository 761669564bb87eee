import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import {
  ADDRESS_FORMAT_SPECS,
  type AddressFormat,
  type Curve,
  deriveAddress,
  encodeAccountPublicKey,
  SUPPORTED_ADDRESS_FORMATS,
} from "../../../src/crypto/addresses/index.js";
import { bytesToHex } from "../../../src/crypto/bytes.js";

const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const SECP_COMPRESSED = secp256k1.getPublicKey(SECRET, true);
const SECP_UNCOMPRESSED = secp256k1.getPublicKey(SECRET, false);
const ED_PUBLIC = ed25519.getPublicKey(SECRET);

function expectError(run: () => unknown, code: string, field: string): CustodyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe(code);
    expect((error as CustodyError).field).toBe(field);
    return error as CustodyError;
  }
  throw new Error(`expected ${code}`);
}

describe("deriveAddress", () => {
  it.each([
    ["CURVE_ED25519", "ADDRESS_FORMAT_ETHEREUM", ED_PUBLIC],
    ["CURVE_ED25519", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR", ED_PUBLIC],
    ["CURVE_SECP256K1", "ADDRESS_FORMAT_SOLANA", SECP_COMPRESSED],
    ["CURVE_SECP256K1", "ADDRESS_FORMAT_TON_V4R2", SECP_COMPRESSED],
    ["CURVE_P256", "ADDRESS_FORMAT_COMPRESSED", SECP_COMPRESSED],
  ] as const)("refuses %s with %s (INVALID_ARGUMENT on addressFormat)", (curve, format, publicKey) => {
    const error = expectError(() => deriveAddress(curve, format, publicKey), "INVALID_ARGUMENT", "addressFormat");
    expect(error.message).toContain(curve);
    expect(error.details).toMatchObject({ curve, addressFormat: format });
  });

  it.each(["ADDRESS_FORMAT_TON_V5R1", "ADDRESS_FORMAT_SPARK_MAINNET", "ADDRESS_FORMAT_SPARK_REGTEST"] as const)(
    "answers %s with UNIMPLEMENTED",
    (format) => {
      expectError(() => deriveAddress("CURVE_ED25519", format, ED_PUBLIC), "UNIMPLEMENTED", "addressFormat");
    },
  );

  it("refuses an unknown format string as INVALID_ARGUMENT", () => {
    expectError(
      () => deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_BITCOIN" as AddressFormat, SECP_COMPRESSED),
      "INVALID_ARGUMENT",
      "addressFormat",
    );
  });

  it("refuses an unknown curve string as INVALID_ARGUMENT", () => {
    expectError(
      () => deriveAddress("CURVE_X25519" as Curve, "ADDRESS_FORMAT_COMPRESSED", ED_PUBLIC),
      "INVALID_ARGUMENT",
      "addressFormat",
    );
  });

  it.each([
    ["a 32-byte secp256k1 key", "CURVE_SECP256K1", "ADDRESS_FORMAT_ETHEREUM", SECP_COMPRESSED.slice(1)],
    [
      "a point off secp256k1",
      "CURVE_SECP256K1",
      "ADDRESS_FORMAT_ETHEREUM",
      Uint8Array.of(0x02, ...new Uint8Array(32).fill(0xff)),
    ],
    ["a bad SEC1 prefix", "CURVE_SECP256K1", "ADDRESS_FORMAT_COSMOS", Uint8Array.of(0x05, ...SECP_COMPRESSED.slice(1))],
    ["a 33-byte ed25519 key", "CURVE_ED25519", "ADDRESS_FORMAT_SOLANA", Uint8Array.of(0, ...ED_PUBLIC)],
    ["a non-canonical ed25519 encoding", "CURVE_ED25519", "ADDRESS_FORMAT_SUI", new Uint8Array(32).fill(0xff)],
  ] as const)("refuses %s naming publicKey", (_, curve, format, publicKey) => {
    expectError(() => deriveAddress(curve, format, publicKey), "INVALID_ARGUMENT", "publicKey");
  });

  it("gives the same address for a secp256k1 key in compressed or uncompressed form", () => {
    const secp256k1Formats = SUPPORTED_ADDRESS_FORMATS.filter((format) =>
      (ADDRESS_FORMAT_SPECS[format].curves as readonly Curve[]).includes("CURVE_SECP256K1"),
    );
    expect(secp256k1Formats).toHaveLength(29);
    for (const format of secp256k1Formats) {
      expect(deriveAddress("CURVE_SECP256K1", format, SECP_UNCOMPRESSED)).toBe(
        deriveAddress("CURVE_SECP256K1", format, SECP_COMPRESSED),
      );
    }
  });

  it("prints COMPRESSED and UNCOMPRESSED as lowercase hex without 0x (decision 5)", () => {
    expect(deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_COMPRESSED", SECP_UNCOMPRESSED)).toBe(
      bytesToHex(SECP_COMPRESSED),
    );
    expect(deriveAddress("CURVE_SECP256K1", "ADDRESS_FORMAT_UNCOMPRESSED", SECP_COMPRESSED)).toMatch(
      /^04[0-9a-f]{128}$/,
    );
    expect(deriveAddress("CURVE_ED25519", "ADDRESS_FORMAT_COMPRESSED", ED_PUBLIC)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("encodeAccountPublicKey", () => {
  it("is the compressed SEC1 hex on secp256k1, whatever form it is given", () => {
    expect(encodeAccountPublicKey("CURVE_SECP256K1", SECP_UNCOMPRESSED)).toBe(bytesToHex(SECP_COMPRESSED));
    expect(encodeAccountPublicKey("CURVE_SECP256K1", SECP_COMPRESSED)).toMatch(/^0[23][0-9a-f]{64}$/);
  });

  it("is the 32-byte key in hex on ed25519", () => {
    expect(encodeAccountPublicKey("CURVE_ED25519", ED_PUBLIC)).toBe(bytesToHex(ED_PUBLIC));
  });

  it("refuses a key of the wrong curve", () => {
    expectError(() => encodeAccountPublicKey("CURVE_ED25519", SECP_COMPRESSED), "INVALID_ARGUMENT", "publicKey");
    expectError(() => encodeAccountPublicKey("CURVE_SECP256K1", ED_PUBLIC), "INVALID_ARGUMENT", "publicKey");
  });
});
