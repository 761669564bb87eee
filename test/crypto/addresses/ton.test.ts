import { ed25519 } from "@noble/curves/ed25519.js";
import { Address } from "@ton/core";
import { WalletContractV3R2, WalletContractV4 } from "@ton/ton";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc16Xmodem } from "../../../src/crypto/addresses/crc16.js";
import { TON_DEFAULT_WALLET_ID, TON_WALLET_CODE, tonWalletAccountId } from "../../../src/crypto/addresses/ton.js";
import {
  formatTonFriendlyAddress,
  formatTonRawAddress,
  parseTonAddress,
} from "../../../src/crypto/addresses/ton-address.js";
import { bytesToHex, utf8ToBytes } from "../../../src/crypto/bytes.js";

const WALLETS = { V3R2: WalletContractV3R2, V4R2: WalletContractV4 } as const;
const publicKeyOf = (secret: Uint8Array) => ed25519.getPublicKey(secret);
const secret = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("TON wallet contracts", () => {
  it.each(["V3R2", "V4R2"] as const)("uses @ton/ton's %s code cell and wallet id", (version) => {
    const wallet = WALLETS[version].create({ workchain: 0, publicKey: Buffer.alloc(32, 1) });
    expect(bytesToHex(TON_WALLET_CODE[version].hash)).toBe(wallet.init.code.hash().toString("hex"));
    expect(TON_WALLET_CODE[version].depth).toBe(wallet.init.code.depth());
    expect(TON_DEFAULT_WALLET_ID).toBe(wallet.walletId);
  });

  it.each(["V3R2", "V4R2"] as const)("hashes the %s StateInit as @ton/ton does (property)", (version) => {
    fc.assert(
      fc.property(secret, (bytes) => {
        const publicKey = publicKeyOf(bytes);
        const wallet = WALLETS[version].create({ workchain: 0, publicKey: Buffer.from(publicKey) });
        expect(Buffer.from(tonWalletAccountId(version, publicKey))).toEqual(wallet.address.hash);
      }),
      { numRuns: 25 },
    );
  });
});

describe("TON address notations", () => {
  const flagSets = [
    { bounceable: true, testOnly: false },
    { bounceable: false, testOnly: false },
    { bounceable: true, testOnly: true },
    { bounceable: false, testOnly: true },
  ];

  it("prints each flag combination as @ton/core does, and parses it back (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom(0, -1),
        fc.constantFrom(...flagSets),
        (hash, workchain, flags) => {
          const ours = formatTonFriendlyAddress({ workchain, hash }, flags);
          const address = new Address(workchain, Buffer.from(hash));
          expect(ours).toBe(address.toString({ ...flags, urlSafe: true }));
          expect(parseTonAddress(ours)).toEqual({ workchain, hash });
          expect(parseTonAddress(address.toString({ ...flags, urlSafe: false }))).toEqual({ workchain, hash });
          expect(parseTonAddress(address.toRawString())).toEqual({ workchain, hash });
          expect(formatTonRawAddress({ workchain, hash })).toBe(address.toRawString());
        },
      ),
      { numRuns: 50 },
    );
  });

  it("rejects a friendly address with a bad checksum, an unknown tag or the wrong length", () => {
    const address = new Address(0, Buffer.alloc(32, 9));
    const friendly = address.toString();
    const bytes = Buffer.from(friendly, "base64url");
    const corrupt = (mutate: (b: Buffer) => void, fixChecksum: boolean) => {
      const copy = Buffer.from(bytes);
      mutate(copy);
      if (fixChecksum) copy.writeUInt16BE(crc16Xmodem(copy.subarray(0, 34)), 34);
      return copy.toString("base64url");
    };
    expect(parseTonAddress(corrupt((b) => b.writeUInt8(0xff, 20), false))).toBeUndefined();
    expect(parseTonAddress(corrupt((b) => b.writeUInt8(0xff, 20), true))).toEqual({
      workchain: 0,
      hash: Uint8Array.from([...Buffer.alloc(18, 9), 0xff, ...Buffer.alloc(13, 9)]),
    });
    expect(parseTonAddress(corrupt((b) => b.writeUInt8(0x12, 0), true))).toBeUndefined();
    expect(parseTonAddress(friendly.slice(0, 44))).toBeUndefined();
    expect(parseTonAddress(`0:${"ab".repeat(31)}`)).toBeUndefined();
    expect(parseTonAddress("0:zz")).toBeUndefined();
  });

  it("computes CRC-16/XMODEM's published check value", () => {
    expect(crc16Xmodem(utf8ToBytes("123456789"))).toBe(0x31c3);
  });
});
