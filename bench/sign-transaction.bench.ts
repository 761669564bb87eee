/**
 * `sign_transaction` of an EIP-1559 transaction in-process (parse, `eth.tx` for 10 policies, decision, signature,
 * re-encoding, activity record) by a non-root member allowed by one policy among 10, next to viem's local account
 * `signTransaction` of the same transaction. Target: at least 0.70.
 *
 * Run: `npx tsx bench/sign-transaction.bench.ts` (see `harness.ts` for `BENCH_MS`, `BENCH_ROUNDS`).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { parseEther, serializeTransaction, type TransactionSerializableEIP1559 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { BenchReport } from "./harness.js";
import { signingOrganization } from "./support.js";

const report = new BenchReport("sign-transaction");
const org = await signingOrganization(10);
const transaction: TransactionSerializableEIP1559 = {
  type: "eip1559",
  chainId: 1,
  nonce: 7,
  to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  value: parseEther("0.01"),
  gas: 21_000n,
  maxFeePerGas: 30_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
};
const unsignedTransaction = serializeTransaction(transaction).slice(2);
const viemAccount = privateKeyToAccount(`0x${bytesToHex(secp256k1.utils.randomSecretKey())}`);

await report.compare(
  "sign_transaction EIP-1559, 10 policies",
  {
    label: "engine in-process",
    run: () =>
      org.signer.signTransaction({
        organizationId: org.organizationId,
        parameters: { signWith: org.ethereumAddress, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction },
      }),
  },
  { label: "viem local account signTransaction", run: () => viemAccount.signTransaction(transaction) },
  { op: ">=", value: 0.7 },
);
report.finish();
