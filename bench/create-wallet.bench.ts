/**
 * `create_wallet` with one Ethereum account in-process, next to the work it cannot avoid: the BIP39 seed
 * (node:crypto PBKDF2-HMAC-SHA512, 2048 rounds) and one `@scure/bip32` derivation of the account's path.
 *
 * Run: `npx tsx bench/create-wallet.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { BenchReport } from "./harness.js";
import { signingOrganization } from "./support.js";

const report = new BenchReport("create-wallet");
const { root, organizationId } = await signingOrganization(0);
let n = 0;

await report.compare(
  "create_wallet, one account",
  {
    label: "engine in-process",
    run: () =>
      root.createWallet({
        organizationId,
        parameters: {
          walletName: `w${n++}`,
          accounts: [
            {
              curve: "CURVE_SECP256K1",
              pathFormat: "PATH_FORMAT_BIP32",
              path: "m/44'/60'/0'/0/0",
              addressFormat: "ADDRESS_FORMAT_ETHEREUM",
            },
          ],
        },
      }),
  },
  {
    label: "PBKDF2 seed + one bip32 derivation",
    run: () => {
      const mnemonic = entropyToMnemonic(randomBytes(16), wordlist);
      const seed = pbkdf2Sync(mnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
      return HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0/0").publicKey;
    },
  },
  { op: ">=", value: 0.8 },
);
report.finish();
