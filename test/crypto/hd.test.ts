import { readFileSync } from "node:fs";
import { HDKey as ScureHDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { deriveEd25519Path } from "@ton/crypto";
import fc from "fast-check";
import { HDKey as Slip10HDKey } from "micro-key-producer/slip10.js";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/common/errors.js";
import { bytesToHex, hexToBytes } from "../../src/crypto/bytes.js";
import {
  assertValidMnemonic,
  deriveKeyPair,
  deriveNode,
  formatDerivationPath,
  generateMnemonic,
  type HdNode,
  MAX_PATH_DEPTH,
  MNEMONIC_LENGTHS,
  masterNode,
  mnemonicToSeed,
  nodeKeyPair,
  parseDerivationPath,
  resolveDerivationPath,
  validateMnemonic,
  wipeNode,
} from "../../src/crypto/hd/index.js";

interface TrezorVectors {
  passphrase: string;
  vectors: [entropy: string, mnemonic: string, seed: string, xprv: string][];
}
interface Slip10Chain {
  path: string;
  chainCode: string;
  private: string;
  public: string;
}
interface Slip10Vectors {
  secp256k1: { seed: string; chains: Slip10Chain[] }[];
  ed25519: { seed: string; chains: Slip10Chain[] }[];
}

const readVectors = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), "utf8")) as T;
const trezor = readVectors<TrezorVectors>("bip39-trezor.json");
const slip10 = readVectors<Slip10Vectors>("slip10.json");

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const TEST_SEED = mnemonicToSeed(TEST_MNEMONIC);

/** A randomBytes source that replays fixed bytes, so generation is a pure function of them. */
const replay = (bytes: Uint8Array) => (length: number) => {
  expect(length).toBe(bytes.length);
  return bytes.slice();
};

function expectInvalidArgument(run: () => unknown, field: string): CustodyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    const custody = error as CustodyError;
    expect(custody.code).toBe("INVALID_ARGUMENT");
    expect(custody.field).toBe(field);
    return custody;
  }
  throw new Error("expected an INVALID_ARGUMENT error");
}

describe("BIP39 mnemonics", () => {
  it.each(trezor.vectors)(
    "turns entropy %s into the Trezor vector's mnemonic, seed and master key",
    (entropy, mnemonic, seed, xprv) => {
      const bytes = hexToBytes(entropy);
      const length = ((bytes.length * 3) / 4) as (typeof MNEMONIC_LENGTHS)[number];
      expect(generateMnemonic(length, replay(bytes))).toBe(mnemonic);
      expect(validateMnemonic(mnemonic)).toBe(true);
      const derived = mnemonicToSeed(mnemonic, trezor.passphrase);
      expect(bytesToHex(derived)).toBe(seed);
      const master = masterNode("CURVE_SECP256K1", derived);
      expect(nodeKeyPair(master).privateKey).toEqual(ScureHDKey.fromExtendedKey(xprv).privateKey);
    },
  );

  it("generates every BIP39 length from the injected source, deterministically", () => {
    for (const length of MNEMONIC_LENGTHS) {
      const entropy = Uint8Array.from({ length: (length * 4) / 3 }, (_, i) => (i * 37 + length) & 0xff);
      const first = generateMnemonic(length, replay(entropy));
      expect(first.split(" ")).toHaveLength(length);
      expect(validateMnemonic(first)).toBe(true);
      expect(generateMnemonic(length, replay(entropy))).toBe(first);
    }
  });

  it("wipes the entropy it was given", () => {
    const entropy = new Uint8Array(16).fill(7);
    generateMnemonic(12, () => entropy);
    expect(entropy.every((byte) => byte === 0)).toBe(true);
  });

  it("refuses a length BIP39 does not define, naming mnemonicLength", () => {
    expectInvalidArgument(() => generateMnemonic(13 as 12, () => new Uint8Array(16)), "mnemonicLength");
  });

  it("reports a random source that returns the wrong number of bytes as INTERNAL", () => {
    expect(() => generateMnemonic(24, () => new Uint8Array(16))).toThrow(expect.objectContaining({ code: "INTERNAL" }));
  });

  it("rejects a bad checksum, an unknown word, a wrong length and doubled spaces", () => {
    const words = TEST_MNEMONIC.split(" ");
    expect(validateMnemonic([...words.slice(0, 11), "abandon"].join(" "))).toBe(false);
    expect(validateMnemonic([...words.slice(0, 11), "bitcoin"].join(" "))).toBe(false);
    expect(validateMnemonic(words.slice(0, 11).join(" "))).toBe(false);
    expect(validateMnemonic(TEST_MNEMONIC.replace(" ", "  "))).toBe(false);
  });

  it("refuses an invalid mnemonic without quoting it", () => {
    const secret = "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo";
    const error = expectInvalidArgument(
      () => assertValidMnemonic(secret, "parameters.mnemonic"),
      "parameters.mnemonic",
    );
    expect(error.message).not.toContain("zoo");
    expect(JSON.stringify(error.toRpcStatus())).not.toContain("zoo");
  });

  it("computes the same seed as @scure/bip39, passphrase normalised to NFKD", () => {
    expect(mnemonicToSeed(TEST_MNEMONIC)).toEqual(mnemonicToSeedSync(TEST_MNEMONIC));
    // "é" precomposed and decomposed must give one seed.
    const composed = mnemonicToSeed(TEST_MNEMONIC, "caf\u00e9");
    expect(mnemonicToSeed(TEST_MNEMONIC, "cafe\u0301")).toEqual(composed);
    expect(composed).toEqual(mnemonicToSeedSync(TEST_MNEMONIC, "caf\u00e9"));
    expect(composed).not.toEqual(mnemonicToSeed(TEST_MNEMONIC));
  });
});

describe("BIP32 paths", () => {
  it("parses hardened and plain levels, with ' h or H", () => {
    expect(parseDerivationPath("m/44'/60h/0H/0/2147483647")).toEqual([
      { index: 44, hardened: true },
      { index: 60, hardened: true },
      { index: 0, hardened: true },
      { index: 0, hardened: false },
      { index: 2147483647, hardened: false },
    ]);
    expect(formatDerivationPath(parseDerivationPath("m/44h/60H/0'/0/1"))).toBe("m/44'/60'/0'/0/1");
    expect(parseDerivationPath("m")).toEqual([]);
  });

  it.each([
    ["", "empty"],
    ["m/44'/x", "a letter"],
    ["44'/0'", "no m"],
    ["M/44'", "M (public derivation)"],
    ["m/", "a trailing slash"],
    ["m//0", "an empty level"],
    ["m/01", "a leading zero"],
    ["m/-1", "a negative index"],
    ["m/1.5", "a fraction"],
    ["m/ 1", "whitespace"],
    ["m/2147483648", "2^31 written plainly"],
    ["m/2147483648'", "a hardened index of 2^31"],
    ["m/99999999999", "an index past 2^32"],
    ["m/0''", "a doubled hardened marker"],
  ])("refuses %j (%s) naming the field", (path) => {
    expectInvalidArgument(
      () => parseDerivationPath(path, "parameters.accounts[3].path"),
      "parameters.accounts[3].path",
    );
  });

  it(`accepts ${MAX_PATH_DEPTH} levels and refuses one more`, () => {
    const deepest = `m${"/1'".repeat(MAX_PATH_DEPTH)}`;
    expect(parseDerivationPath(deepest)).toHaveLength(MAX_PATH_DEPTH);
    const error = expectInvalidArgument(() => parseDerivationPath(`${deepest}/1'`, "path"), "path");
    expect(error.message).toContain("255");
  });

  it("round-trips every canonical path (property)", () => {
    const segment = fc.record({ index: fc.integer({ min: 0, max: 2 ** 31 - 1 }), hardened: fc.boolean() });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), (segments) => {
        expect(parseDerivationPath(formatDerivationPath(segments))).toEqual(segments);
      }),
    );
  });
});

describe("secp256k1 derivation (BIP32)", () => {
  for (const [n, vector] of slip10.secp256k1.entries()) {
    it.each(vector.chains)(`matches BIP32 test vector ${n + 1} at $path`, (chain) => {
      const pair = deriveKeyPair(hexToBytes(vector.seed), "CURVE_SECP256K1", chain.path);
      expect(bytesToHex(pair.privateKey)).toBe(chain.private);
      expect(bytesToHex(pair.publicKey)).toBe(chain.public);
    });
  }

  it("derives non-hardened levels as BIP32 defines them (same key as @scure/bip32's derive)", () => {
    const path = "m/44'/60'/0'/0/7";
    const expected = ScureHDKey.fromMasterSeed(TEST_SEED).derive(path);
    const pair = deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", path);
    expect(pair.privateKey).toEqual(expected.privateKey);
    expect(pair.publicKey).toEqual(expected.publicKey);
  });

  it("agrees with @scure/bip32 on random seeds and mixed hardened and plain paths, cached or not (property)", () => {
    const mixedPath = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean()), { maxLength: 6 })
      .map((levels) => `m${levels.map(([i, hardened]) => `/${i}${hardened ? "'" : ""}`).join("")}`);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), mixedPath, (seed, path) => {
        const theirs = ScureHDKey.fromMasterSeed(seed).derive(path);
        const cache = new Map<string, HdNode>();
        for (const ours of [
          deriveKeyPair(seed, "CURVE_SECP256K1", path),
          deriveKeyPair(seed, "CURVE_SECP256K1", path, { cache }),
        ]) {
          expect(ours.privateKey).toEqual(theirs.privateKey);
          expect(ours.publicKey).toEqual(theirs.publicKey);
          // Both SEC1 forms come from the derived point, without parsing the compressed key again.
          expect(ours.secp256k1?.compressed).toEqual(theirs.publicKey);
          expect(ours.secp256k1?.uncompressed.subarray(1, 33)).toEqual(theirs.publicKey?.subarray(1));
        }
      }),
      { numRuns: 40 },
    );
  });

  it("derives the deepest allowed path", () => {
    const path = `m${"/3".repeat(MAX_PATH_DEPTH)}`;
    expect(deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", path).publicKey).toEqual(
      ScureHDKey.fromMasterSeed(TEST_SEED).derive(path).publicKey,
    );
  });
});

describe("ed25519 derivation (SLIP-10)", () => {
  for (const [n, vector] of slip10.ed25519.entries()) {
    it.each(vector.chains)(`matches SLIP-10 ed25519 test vector ${n + 1} at $path`, (chain) => {
      const seed = hexToBytes(vector.seed);
      const pair = deriveKeyPair(seed, "CURVE_ED25519", chain.path);
      expect(bytesToHex(pair.privateKey)).toBe(chain.private);
      expect(`00${bytesToHex(pair.publicKey)}`).toBe(chain.public);
      const node = deriveNode(seed, "CURVE_ED25519", parseDerivationPath(chain.path));
      expect(node.curve === "CURVE_ED25519" && bytesToHex(node.chainCode)).toBe(chain.chainCode);
    });
  }

  const hardenedPath = fc
    .array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxLength: 6 })
    .map((indices) => `m${indices.map((i) => `/${i}'`).join("")}`);

  it("agrees with micro-key-producer and @ton/crypto on random seeds and hardened paths (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 16, maxLength: 64 }), hardenedPath, async (seed, path) => {
        const ours = deriveKeyPair(seed, "CURVE_ED25519", path);
        const theirs = Slip10HDKey.fromMasterSeed(seed).derive(path);
        expect(ours.privateKey).toEqual(theirs.privateKey);
        expect(ours.publicKey).toEqual(theirs.publicKeyRaw);
        const indices = parseDerivationPath(path).map((segment) => segment.index);
        expect(new Uint8Array(await deriveEd25519Path(Buffer.from(seed), indices))).toEqual(ours.privateKey);
      }),
      { numRuns: 40 },
    );
  });

  it("derives a non-hardened level as hardened by default, as micro-key-producer's forceHardened does", () => {
    for (const path of ["m/44'/501'/0'/0", "m/44'/607'/0'/0/0", "m/0'/0"]) {
      const forced = deriveKeyPair(TEST_SEED, "CURVE_ED25519", path);
      expect(forced.privateKey).toEqual(Slip10HDKey.fromMasterSeed(TEST_SEED).derive(path, true).privateKey);
      expect(forced).toEqual(
        deriveKeyPair(
          TEST_SEED,
          "CURVE_ED25519",
          formatDerivationPath(resolveDerivationPath("CURVE_ED25519", parseDerivationPath(path))),
        ),
      );
    }
  });

  it("refuses a non-hardened level under strictEd25519Paths, naming the field and the level", () => {
    const error = expectInvalidArgument(
      () =>
        deriveKeyPair(TEST_SEED, "CURVE_ED25519", "m/44'/501'/0'/0", {
          strictEd25519Paths: true,
          field: "parameters.accounts[0].path",
        }),
      "parameters.accounts[0].path",
    );
    expect(error.message).toContain("level 4");
    expect(deriveKeyPair(TEST_SEED, "CURVE_ED25519", "m/44'/501'/0'/0'", { strictEd25519Paths: true })).toEqual(
      deriveKeyPair(TEST_SEED, "CURVE_ED25519", "m/44'/501'/0'/0"),
    );
  });

  it("keeps the strict option away from secp256k1, where plain levels are BIP32's", () => {
    expect(() =>
      deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/60'/0'/0/0", { strictEd25519Paths: true }),
    ).not.toThrow();
  });
});

describe("deriveKeyPair", () => {
  it("answers CURVE_P256 with UNIMPLEMENTED naming the curve field", () => {
    expect(() => deriveKeyPair(TEST_SEED, "CURVE_P256", "m/0'", { curveField: "parameters.curve" })).toThrow(
      expect.objectContaining({ code: "UNIMPLEMENTED", details: { field: "parameters.curve" } }),
    );
  });

  it("names the path field for a malformed path", () => {
    expectInvalidArgument(
      () => deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/x", { field: "parameters.accounts[1].path" }),
      "parameters.accounts[1].path",
    );
  });

  it("refuses a seed outside BIP32's 16 to 64 bytes", () => {
    expectInvalidArgument(() => deriveKeyPair(new Uint8Array(15), "CURVE_SECP256K1", "m/0"), "seed");
    expectInvalidArgument(() => deriveKeyPair(new Uint8Array(65), "CURVE_ED25519", "m/0'"), "seed");
  });

  it("gives the same keys with a cache, starting from the deepest cached ancestor", () => {
    const cache = new Map<string, HdNode>();
    const reads: string[] = [];
    const spy = {
      get: (key: string) => {
        reads.push(key);
        return cache.get(key);
      },
      set: (key: string, node: HdNode) => cache.set(key, node),
    };
    const first = deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/60'/0'/0/0", { cache: spy });
    expect([...cache.keys()]).toEqual([
      "CURVE_SECP256K1:m",
      "CURVE_SECP256K1:m/44'",
      "CURVE_SECP256K1:m/44'/60'",
      "CURVE_SECP256K1:m/44'/60'/0'",
      "CURVE_SECP256K1:m/44'/60'/0'/0",
    ]);
    expect(first).toEqual(deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/60'/0'/0/0"));

    reads.length = 0;
    const sibling = deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44h/60h/0h/0/1", { cache: spy });
    expect(reads).toEqual(["CURVE_SECP256K1:m/44'/60'/0'/0/1", "CURVE_SECP256K1:m/44'/60'/0'/0"]);
    expect(sibling).toEqual(deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/60'/0'/0/1"));
  });

  it("shares cached ed25519 nodes between a plain level and its hardened twin", () => {
    const cache = new Map<string, HdNode>();
    const hardened = deriveKeyPair(TEST_SEED, "CURVE_ED25519", "m/44'/607'/0'/0'/0'", { cache });
    expect(cache.has("CURVE_ED25519:m/44'/607'/0'/0'")).toBe(true);
    expect(deriveKeyPair(TEST_SEED, "CURVE_ED25519", "m/44'/607'/0'/0/0", { cache })).toEqual(hardened);
    expect(deriveKeyPair(TEST_SEED, "CURVE_SECP256K1", "m/44'/607'/0'/0/0", { cache }).publicKey).toHaveLength(33);
  });

  it("wipes a node's secret bytes on request", () => {
    const ed = masterNode("CURVE_ED25519", TEST_SEED);
    wipeNode(ed);
    expect(ed.curve === "CURVE_ED25519" && [...ed.privateKey, ...ed.chainCode].every((b) => b === 0)).toBe(true);
    const secp = masterNode("CURVE_SECP256K1", TEST_SEED);
    wipeNode(secp);
    expect(secp.curve === "CURVE_SECP256K1" && secp.key.privateKey).toBeNull();
    expect(() => nodeKeyPair(secp)).toThrow(expect.objectContaining({ code: "INTERNAL" }));
  });

  it("returns copies, so wiping a result leaves cached nodes intact", () => {
    const cache = new Map<string, HdNode>();
    for (const curve of ["CURVE_SECP256K1", "CURVE_ED25519"] as const) {
      const first = deriveKeyPair(TEST_SEED, curve, "m/1'/2'", { cache });
      const master = cache.get(`${curve}:m`) as HdNode;
      const masterPair = nodeKeyPair(master);
      masterPair.privateKey.fill(0);
      first.privateKey.fill(0);
      expect(deriveKeyPair(TEST_SEED, curve, "m/1'/2'", { cache })).toEqual(deriveKeyPair(TEST_SEED, curve, "m/1'/2'"));
    }
  });
});
