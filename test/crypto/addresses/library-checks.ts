/**
 * For every address format and curve custodian derives, how the chain's own library (docs/spec/addresses.md §4)
 * checks an address: derive it again from the same public key with the library, compare, and have the
 * library parse or validate our string. The table is typed from the formats table, so a format without a
 * check does not compile.
 */
import { AccountAddress, Ed25519PublicKey as AptosEd25519PublicKey } from "@aptos-labs/ts-sdk";
import { encodeSecp256k1Pubkey, pubkeyToAddress } from "@cosmjs/amino";
import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { Ed25519PublicKey as SuiEd25519PublicKey } from "@mysten/sui/keypairs/ed25519";
import { isValidSuiAddress } from "@mysten/sui/utils";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { PublicKey as SolanaPublicKey } from "@solana/web3.js";
import { StrKey } from "@stellar/stellar-base";
import { Address as TonAddress } from "@ton/core";
import { WalletContractV3R2, WalletContractV4 } from "@ton/ton";
import * as bitcoin from "bitcoinjs-lib";
import { decodeAccountID, isValidClassicAddress } from "ripple-address-codec";
import { deriveAddress as rippleDeriveAddress } from "ripple-keypairs";
import { TronWeb, utils as tronUtils } from "tronweb";
import { getAddress, isAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import { expect } from "vitest";
import type { ADDRESS_FORMAT_SPECS, SupportedAddressFormat } from "../../../src/crypto/addresses/formats.js";
import { bytesToHex, concatBytes } from "../../../src/crypto/bytes.js";

/** Checks `address`, derived by custodian from `publicKey` (33-byte SEC1 or 32-byte ed25519). */
export interface LibraryCheck {
  /** The library that checks, for test names. */
  readonly library: string;
  readonly check: (publicKey: Uint8Array, address: string) => void;
}

type LibraryCheckTable = {
  [F in SupportedAddressFormat]: { [C in (typeof ADDRESS_FORMAT_SPECS)[F]["curves"][number]]: LibraryCheck };
};

const uncompressed = (publicKey: Uint8Array) => secp256k1.Point.fromBytes(publicKey).toBytes(false);

// bitcoinjs-lib needs an ECC backend for taproot tweaks; this adapts @noble/curves to its two calls.
// The TapTweak tagged hash itself is computed by bitcoinjs-lib.
bitcoin.initEccLib({
  isXOnlyPoint: (p) => {
    try {
      return p.length === 32 && secp256k1.Point.fromBytes(concatBytes(Uint8Array.of(2), p)) !== undefined;
    } catch {
      return false;
    }
  },
  xOnlyPointAddTweak: (p, tweak) => {
    const t = BigInt(`0x${bytesToHex(tweak)}`);
    if (t >= secp256k1.Point.Fn.ORDER) return null;
    const point = secp256k1.Point.fromBytes(concatBytes(Uint8Array.of(2), p));
    const tweaked = t === 0n ? point : point.add(secp256k1.Point.BASE.multiply(t));
    if (tweaked.equals(secp256k1.Point.ZERO)) return null;
    const bytes = tweaked.toBytes(true);
    return { parity: bytes[0] === 3 ? 1 : 0, xOnlyPubkey: bytes.slice(1) };
  },
});

const BITCOIN_NETWORKS = {
  MAINNET: bitcoin.networks.bitcoin,
  TESTNET: bitcoin.networks.testnet,
  // bitcoinjs-lib has no signet object; Bitcoin Core's signet uses testnet's prefixes (docs/spec/addresses.md §5,
  // decision 8).
  SIGNET: bitcoin.networks.testnet,
  REGTEST: bitcoin.networks.regtest,
} as const;

type BitcoinPayment = (pubkey: Uint8Array, network: bitcoin.Network) => bitcoin.Payment;

const BITCOIN_PAYMENTS: Record<"P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR", BitcoinPayment> = {
  P2PKH: (pubkey, network) => bitcoin.payments.p2pkh({ pubkey, network }),
  P2SH: (pubkey, network) => bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey, network }), network }),
  P2WPKH: (pubkey, network) => bitcoin.payments.p2wpkh({ pubkey, network }),
  P2WSH: (pubkey, network) => bitcoin.payments.p2wsh({ redeem: bitcoin.payments.p2pk({ pubkey, network }), network }),
  P2TR: (pubkey, network) => bitcoin.payments.p2tr({ internalPubkey: pubkey.slice(1, 33), network }),
};

function bitcoinCheck(net: keyof typeof BITCOIN_NETWORKS, type: keyof typeof BITCOIN_PAYMENTS): LibraryCheck {
  return {
    library: "bitcoinjs-lib",
    check: (publicKey, address) => {
      const network = BITCOIN_NETWORKS[net];
      const payment = BITCOIN_PAYMENTS[type](publicKey, network);
      expect(address).toBe(payment.address);
      expect(bitcoin.address.toOutputScript(address, network)).toEqual(payment.output);
    },
  };
}

// Dogecoin Core chain parameters (coininfo is not installed); the testnet P2PKH byte is Turnkey's 0x71.
const DOGECOIN_NETWORKS = {
  MAINNET: {
    messagePrefix: "\x19Dogecoin Signed Message:\n",
    bech32: "",
    bip32: { public: 0x02facafd, private: 0x02fac398 },
    pubKeyHash: 0x1e,
    scriptHash: 0x16,
    wif: 0x9e,
  },
  TESTNET: {
    messagePrefix: "\x19Dogecoin Signed Message:\n",
    bech32: "",
    bip32: { public: 0x043587cf, private: 0x04358394 },
    pubKeyHash: 0x71,
    scriptHash: 0xc4,
    wif: 0xf1,
  },
} as const satisfies Record<string, bitcoin.Network>;

function dogecoinCheck(net: keyof typeof DOGECOIN_NETWORKS, firstChars: RegExp): LibraryCheck {
  return {
    library: "bitcoinjs-lib (Dogecoin parameters)",
    check: (publicKey, address) => {
      const network = DOGECOIN_NETWORKS[net];
      const payment = bitcoin.payments.p2pkh({ pubkey: publicKey, network });
      expect(address).toBe(payment.address);
      expect(address).toMatch(firstChars);
      expect(bitcoin.address.fromBase58Check(address).version).toBe(network.pubKeyHash);
    },
  };
}

function cosmosCheck(prefix: string): LibraryCheck {
  return {
    library: "@cosmjs/amino + @cosmjs/encoding",
    check: (publicKey, address) => {
      expect(address).toBe(pubkeyToAddress(encodeSecp256k1Pubkey(publicKey), prefix));
      const decoded = fromBech32(address, 90);
      expect(decoded.prefix).toBe(prefix);
      expect(decoded.data).toHaveLength(20);
      expect(toBech32(prefix, decoded.data)).toBe(address);
    },
  };
}

function tonCheck(create: (publicKey: Buffer) => { address: TonAddress }): LibraryCheck {
  return {
    library: "@ton/ton + @ton/core",
    check: (publicKey, address) => {
      const wallet = create(Buffer.from(publicKey));
      // @ton/core's default rendering is custodian's choice: bounceable, url-safe, mainnet.
      expect(address).toBe(wallet.address.toString());
      const parsed = TonAddress.parseFriendly(address);
      expect(parsed.isBounceable).toBe(true);
      expect(parsed.isTestOnly).toBe(false);
      expect(parsed.address.workChain).toBe(0);
      expect(parsed.address.equals(wallet.address)).toBe(true);
    },
  };
}

/** One library check per format and curve. */
export const LIBRARY_CHECKS: LibraryCheckTable = {
  ADDRESS_FORMAT_UNCOMPRESSED: {
    CURVE_SECP256K1: {
      library: "@noble/curves",
      check: (publicKey, address) => {
        expect(address).toBe(secp256k1.Point.fromBytes(publicKey).toHex(false));
        expect(secp256k1.Point.fromHex(address).toHex(true)).toBe(bytesToHex(publicKey));
      },
    },
  },
  ADDRESS_FORMAT_COMPRESSED: {
    CURVE_SECP256K1: {
      library: "@noble/curves",
      check: (publicKey, address) => {
        expect(address).toBe(secp256k1.Point.fromBytes(publicKey).toHex(true));
        expect(secp256k1.Point.fromHex(address).toBytes(true)).toEqual(publicKey);
      },
    },
    CURVE_ED25519: {
      library: "@noble/curves",
      check: (publicKey, address) => {
        expect(address).toBe(ed25519.Point.fromBytes(publicKey).toHex());
        expect(ed25519.Point.fromHex(address).toBytes()).toEqual(publicKey);
      },
    },
  },
  ADDRESS_FORMAT_ETHEREUM: {
    CURVE_SECP256K1: {
      library: "viem",
      check: (publicKey, address) => {
        expect(address).toBe(publicKeyToAddress(`0x${bytesToHex(uncompressed(publicKey))}`));
        expect(isAddress(address, { strict: true })).toBe(true);
        expect(getAddress(address.toLowerCase())).toBe(address);
      },
    },
  },
  ADDRESS_FORMAT_SOLANA: {
    CURVE_ED25519: {
      library: "@solana/web3.js",
      check: (publicKey, address) => {
        expect(address).toBe(new SolanaPublicKey(publicKey).toBase58());
        expect(new SolanaPublicKey(address).toBytes()).toEqual(publicKey);
        expect(SolanaPublicKey.isOnCurve(publicKey)).toBe(true);
      },
    },
  },
  ADDRESS_FORMAT_COSMOS: { CURVE_SECP256K1: cosmosCheck("cosmos") },
  ADDRESS_FORMAT_TRON: {
    CURVE_SECP256K1: {
      library: "tronweb",
      check: (publicKey, address) => {
        const bytes = tronUtils.crypto.computeAddress(Array.from(uncompressed(publicKey)));
        expect(address).toBe(tronUtils.crypto.getBase58CheckAddress(bytes));
        expect(TronWeb.isAddress(address)).toBe(true);
        expect(address.startsWith("T")).toBe(true);
      },
    },
  },
  ADDRESS_FORMAT_SUI: {
    CURVE_ED25519: {
      library: "@mysten/sui",
      check: (publicKey, address) => {
        expect(address).toBe(new SuiEd25519PublicKey(publicKey).toSuiAddress());
        expect(isValidSuiAddress(address)).toBe(true);
      },
    },
  },
  ADDRESS_FORMAT_APTOS: {
    CURVE_ED25519: {
      library: "@aptos-labs/ts-sdk",
      check: (publicKey, address) => {
        expect(address).toBe(new AptosEd25519PublicKey(publicKey).authKey().derivedAddress().toStringLong());
        expect(AccountAddress.isValid({ input: address, strict: true }).valid).toBe(true);
        expect(AccountAddress.fromString(address).toStringLong()).toBe(address);
      },
    },
  },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: { CURVE_SECP256K1: bitcoinCheck("MAINNET", "P2PKH") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: { CURVE_SECP256K1: bitcoinCheck("MAINNET", "P2SH") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: { CURVE_SECP256K1: bitcoinCheck("MAINNET", "P2WPKH") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: { CURVE_SECP256K1: bitcoinCheck("MAINNET", "P2WSH") },
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: { CURVE_SECP256K1: bitcoinCheck("MAINNET", "P2TR") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: { CURVE_SECP256K1: bitcoinCheck("TESTNET", "P2PKH") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: { CURVE_SECP256K1: bitcoinCheck("TESTNET", "P2SH") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: { CURVE_SECP256K1: bitcoinCheck("TESTNET", "P2WPKH") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: { CURVE_SECP256K1: bitcoinCheck("TESTNET", "P2WSH") },
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: { CURVE_SECP256K1: bitcoinCheck("TESTNET", "P2TR") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: { CURVE_SECP256K1: bitcoinCheck("SIGNET", "P2PKH") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: { CURVE_SECP256K1: bitcoinCheck("SIGNET", "P2SH") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: { CURVE_SECP256K1: bitcoinCheck("SIGNET", "P2WPKH") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: { CURVE_SECP256K1: bitcoinCheck("SIGNET", "P2WSH") },
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: { CURVE_SECP256K1: bitcoinCheck("SIGNET", "P2TR") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: { CURVE_SECP256K1: bitcoinCheck("REGTEST", "P2PKH") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: { CURVE_SECP256K1: bitcoinCheck("REGTEST", "P2SH") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: { CURVE_SECP256K1: bitcoinCheck("REGTEST", "P2WPKH") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: { CURVE_SECP256K1: bitcoinCheck("REGTEST", "P2WSH") },
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: { CURVE_SECP256K1: bitcoinCheck("REGTEST", "P2TR") },
  ADDRESS_FORMAT_SEI: { CURVE_SECP256K1: cosmosCheck("sei") },
  ADDRESS_FORMAT_XLM: {
    CURVE_ED25519: {
      library: "@stellar/stellar-base",
      check: (publicKey, address) => {
        expect(address).toBe(StrKey.encodeEd25519PublicKey(Buffer.from(publicKey)));
        expect(StrKey.isValidEd25519PublicKey(address)).toBe(true);
        expect(new Uint8Array(StrKey.decodeEd25519PublicKey(address))).toEqual(publicKey);
      },
    },
  },
  ADDRESS_FORMAT_DOGE_MAINNET: { CURVE_SECP256K1: dogecoinCheck("MAINNET", /^D/) },
  ADDRESS_FORMAT_DOGE_TESTNET: { CURVE_SECP256K1: dogecoinCheck("TESTNET", /^n/) },
  ADDRESS_FORMAT_TON_V3R2: {
    CURVE_ED25519: tonCheck((publicKey) => WalletContractV3R2.create({ workchain: 0, publicKey })),
  },
  ADDRESS_FORMAT_TON_V4R2: {
    CURVE_ED25519: tonCheck((publicKey) => WalletContractV4.create({ workchain: 0, publicKey })),
  },
  ADDRESS_FORMAT_XRP: {
    CURVE_SECP256K1: {
      library: "ripple-keypairs + ripple-address-codec",
      check: (publicKey, address) => {
        expect(address).toBe(rippleDeriveAddress(bytesToHex(publicKey).toUpperCase()));
        expect(isValidClassicAddress(address)).toBe(true);
        expect(decodeAccountID(address)).toHaveLength(20);
      },
    },
  },
};
