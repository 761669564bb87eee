import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import {
  ADDRESS_FORMAT_SPECS,
  ADDRESS_FORMATS,
  assertFormatAcceptsCurve,
  CURVES,
  defaultAccountPath,
  HD_CURVES,
  isSupportedAddressFormat,
  PATH_FORMATS,
  SUPPORTED_ADDRESS_FORMATS,
  type SupportedAddressFormat,
} from "../../../src/crypto/addresses/index.js";

const swagger = JSON.parse(
  readFileSync(new URL("../../vectors/reference/public_api.swagger.json", import.meta.url), "utf8"),
) as { definitions: Record<string, { enum?: string[] }> };

/** Spec section 2, "SDK default path" column at account index 0. */
const SDK_DEFAULT_PATHS: Record<SupportedAddressFormat, string | undefined> = {
  ADDRESS_FORMAT_UNCOMPRESSED: undefined,
  ADDRESS_FORMAT_COMPRESSED: undefined,
  ADDRESS_FORMAT_ETHEREUM: "m/44'/60'/0'/0/0",
  ADDRESS_FORMAT_SOLANA: "m/44'/501'/0'/0'",
  ADDRESS_FORMAT_COSMOS: "m/44'/118'/0'/0/0",
  ADDRESS_FORMAT_TRON: "m/44'/195'/0'",
  ADDRESS_FORMAT_SUI: "m/44'/784'/0'/0'/0'",
  ADDRESS_FORMAT_APTOS: "m/44'/637'/0'/0'/0'",
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: "m/44'/0'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: "m/44'/0'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: "m/84'/0'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: "m/48'/0'/0'/2'/0/0",
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: "m/86'/0'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: "m/84'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: "m/48'/1'/0'/2'/0/0",
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: "m/86'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: "m/84'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: "m/48'/1'/0'/2'/0/0",
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: "m/86'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: "m/44'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: "m/84'/1'/0'/0/0",
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: "m/48'/1'/0'/2'/0/0",
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: "m/86'/1'/0'/0/0",
  ADDRESS_FORMAT_SEI: "m/44'/118'/0'/0'/0'",
  ADDRESS_FORMAT_XLM: "m/44'/148'/0'",
  ADDRESS_FORMAT_DOGE_MAINNET: "m/44'/3'/0'/0/0",
  ADDRESS_FORMAT_DOGE_TESTNET: "m/44'/3'/0'/0/0",
  ADDRESS_FORMAT_TON_V3R2: "m/44'/607'/0'/0'/0'",
  ADDRESS_FORMAT_TON_V4R2: "m/44'/607'/0'/0'/0'",
  ADDRESS_FORMAT_XRP: "m/44'/144'/0'/0'/0'",
};

function expectCustodyError(run: () => unknown, code: string, field: string): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).code).toBe(code);
    expect((error as CustodyError).field).toBe(field);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe("wire enums", () => {
  it("are exactly the swagger's v1Curve, v1PathFormat and v1AddressFormat, in order", () => {
    expect([...CURVES]).toEqual(swagger.definitions.v1Curve?.enum);
    expect([...PATH_FORMATS]).toEqual(swagger.definitions.v1PathFormat?.enum);
    expect([...ADDRESS_FORMATS]).toEqual(swagger.definitions.v1AddressFormat?.enum);
  });

  it("derive every wire format but TON_V5R1 and the two Spark formats", () => {
    expect(ADDRESS_FORMATS.filter((format) => !isSupportedAddressFormat(format))).toEqual([
      "ADDRESS_FORMAT_TON_V5R1",
      "ADDRESS_FORMAT_SPARK_MAINNET",
      "ADDRESS_FORMAT_SPARK_REGTEST",
    ]);
    expect(SUPPORTED_ADDRESS_FORMATS).toEqual(ADDRESS_FORMATS.filter(isSupportedAddressFormat));
    expect(isSupportedAddressFormat("toString")).toBe(false);
  });

  it("let every supported format accept only HD curves, and COMPRESSED both of them", () => {
    for (const format of SUPPORTED_ADDRESS_FORMATS) {
      for (const curve of ADDRESS_FORMAT_SPECS[format].curves) expect(HD_CURVES).toContain(curve);
    }
    expect(ADDRESS_FORMAT_SPECS.ADDRESS_FORMAT_COMPRESSED.curves).toEqual(["CURVE_SECP256K1", "CURVE_ED25519"]);
    expect(SUPPORTED_ADDRESS_FORMATS.filter((f) => ADDRESS_FORMAT_SPECS[f].curves.length > 1)).toEqual([
      "ADDRESS_FORMAT_COMPRESSED",
    ]);
  });
});

describe("default account paths", () => {
  it.each(SUPPORTED_ADDRESS_FORMATS)("%s follows the SDK constant", (format) => {
    expect(defaultAccountPath(format)).toBe(SDK_DEFAULT_PATHS[format]);
  });

  it("puts the account index in the third level", () => {
    expect(defaultAccountPath("ADDRESS_FORMAT_ETHEREUM", 3)).toBe("m/44'/60'/3'/0/0");
    expect(defaultAccountPath("ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH", 3)).toBe("m/48'/0'/3'/2'/0/0");
    expect(defaultAccountPath("ADDRESS_FORMAT_TRON", 3)).toBe("m/44'/195'/3'");
  });

  it.each([-1, 1.5, 2 ** 31, Number.NaN])("refuses account index %s", (index) => {
    expectCustodyError(() => defaultAccountPath("ADDRESS_FORMAT_ETHEREUM", index), "INVALID_ARGUMENT", "accountIndex");
  });
});

describe("assertFormatAcceptsCurve", () => {
  it("accepts the pairs of the table", () => {
    expect(() => assertFormatAcceptsCurve("CURVE_ED25519", "ADDRESS_FORMAT_COMPRESSED")).not.toThrow();
    expect(() => assertFormatAcceptsCurve("CURVE_SECP256K1", "ADDRESS_FORMAT_XRP")).not.toThrow();
  });

  it.each([
    ["CURVE_ED25519", "ADDRESS_FORMAT_ETHEREUM"],
    ["CURVE_SECP256K1", "ADDRESS_FORMAT_SOLANA"],
    ["CURVE_ED25519", "ADDRESS_FORMAT_UNCOMPRESSED"],
    ["CURVE_P256", "ADDRESS_FORMAT_COMPRESSED"],
  ] as const)("refuses %s with %s as INVALID_ARGUMENT naming the field", (curve, format) => {
    expectCustodyError(
      () => assertFormatAcceptsCurve(curve, format, "parameters.accounts[2].addressFormat"),
      "INVALID_ARGUMENT",
      "parameters.accounts[2].addressFormat",
    );
  });

  it("answers wire formats custodian does not derive with UNIMPLEMENTED, and unknown strings with INVALID_ARGUMENT", () => {
    expectCustodyError(
      () => assertFormatAcceptsCurve("CURVE_ED25519", "ADDRESS_FORMAT_TON_V5R1"),
      "UNIMPLEMENTED",
      "addressFormat",
    );
    expectCustodyError(
      () => assertFormatAcceptsCurve("CURVE_SECP256K1", "ADDRESS_FORMAT_SPARK_MAINNET", "f"),
      "UNIMPLEMENTED",
      "f",
    );
    expectCustodyError(
      () => assertFormatAcceptsCurve("CURVE_SECP256K1", "ADDRESS_FORMAT_LITECOIN" as "ADDRESS_FORMAT_XRP"),
      "INVALID_ARGUMENT",
      "addressFormat",
    );
  });
});
