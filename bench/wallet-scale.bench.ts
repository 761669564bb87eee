/**
 * A wallet of 100,000 accounts in MemoryStore: heap per account (target at most 2 KiB), and a page of 100
 * accounts (`list_wallet_accounts`) there against the same page in a 1,000-account wallet, first and deep page
 * (target at least 0.65: a page's cost must not grow with the wallet).
 *
 * Run: `node --expose-gc --import tsx bench/wallet-scale.bench.ts` (`npm run bench` passes the flag).
 * `BENCH_ACCOUNTS` sets the large wallet's size (default 100,000).
 */
import { BenchReport } from "./harness.js";
import { signingOrganization } from "./support.js";

const LARGE = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const SMALL = 1_000;
const BATCH = 1_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc: the heap figure needs a collection before each reading");

const report = new BenchReport("wallet-scale");
const { root, organizationId } = await signingOrganization(0);

async function walletOf(accounts: number): Promise<{ walletId: string; ids: string[] }> {
  const { activity } = await root.createWallet({
    organizationId,
    parameters: { walletName: `w${accounts}`, accounts: [] },
  });
  const { walletId } = (activity.result as { createWalletResult: { walletId: string } }).createWalletResult;
  for (let from = 0; from < accounts; from += BATCH) {
    await root.createWalletAccounts({
      organizationId,
      parameters: {
        walletId,
        accounts: Array.from({ length: Math.min(BATCH, accounts - from) }, (_, i) => ({
          curve: "CURVE_SECP256K1" as const,
          pathFormat: "PATH_FORMAT_BIP32" as const,
          path: `m/44'/60'/0'/0/${from + i}`,
          addressFormat: "ADDRESS_FORMAT_ETHEREUM" as const,
        })),
      },
    });
  }
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const { accounts: page } = await root.getWalletAccounts({
      organizationId,
      walletId,
      paginationOptions: { limit: "100", ...(after ? { after } : {}) },
    });
    ids.push(...page.map((account) => account.walletAccountId));
    if (page.length < 100) return { walletId, ids };
    after = page[page.length - 1]?.walletAccountId;
  }
}

const small = await walletOf(SMALL);
gc();
const before = process.memoryUsage().heapUsed;
const large = await walletOf(LARGE);
gc();
const perAccount = (process.memoryUsage().heapUsed - before) / LARGE;
report.measured(
  `heap per wallet account at ${LARGE} accounts`,
  { label: "bytes per account", samples: [perAccount] },
  { label: "2 KiB", samples: [2048] },
  "bytes",
  { op: "<=", value: 1 },
);

const page = (wallet: { walletId: string; ids: string[] }, at: number) => () =>
  root.getWalletAccounts({
    organizationId,
    walletId: wallet.walletId,
    paginationOptions: { limit: "100", ...(at > 0 ? { after: wallet.ids[at - 1] as string } : {}) },
  });
await report.compare(
  `first page of 100: ${LARGE} vs ${SMALL} accounts`,
  { label: `${LARGE}-account wallet`, run: page(large, 0) },
  { label: `${SMALL}-account wallet`, run: page(small, 0) },
  { op: ">=", value: 0.65 },
);
await report.compare(
  `deep page of 100 (the last full page): ${LARGE} vs ${SMALL} accounts`,
  { label: `${LARGE}-account wallet`, run: page(large, LARGE - 100) },
  { label: `${SMALL}-account wallet`, run: page(small, SMALL - 100) },
  { op: ">=", value: 0.65 },
);
report.finish();
