/**
 * Transaction bombs (issue #31): signing requests under the body limit that once held the event loop for
 * seconds (a PSBT of 1,500 inputs of the signer's key; one paying 200 bare multisig outputs of 16 keys each; an
 * EIP-712 list of values `{}` whose absent struct members hash zero words; a thousand such documents in one
 * `sign_raw_payloads`; a thousand Solana instructions against an IDL of 4,000), the ones a bound now refuses
 * (an Ethereum access list of 5,600 addresses, a Solana transaction of 43,000 instructions), and the dearest
 * requests the bounds still allow. While each is in flight a cheap request (`get_whoami`) is sent again and
 * again; its slowest answer is the figure of how long the request held the server's event loop.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { Address, NETWORK, OutScript, p2wpkh, Script } from "@scure/btc-signer";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import {
  absentMembers,
  accessListTransaction,
  BITCOIN_SEGWIT_ACCOUNT,
  BITCOIN_TAPROOT_ACCOUNT,
  psbt,
  solanaTransaction,
} from "../../test/support/transaction-bombs.js";
import { check, clientFor, figure, type Target } from "./harness.js";

/** The slowest answer to `probe`, sent back to back while `work` runs, and what `work` gave. */
async function slowestProbeDuring<T>(probe: () => Promise<unknown>, work: () => Promise<T>) {
  let running = true;
  let slowest = 0;
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      await probe();
      slowest = Math.max(slowest, performance.now() - started);
    }
  })();
  const started = performance.now();
  const outcome = await work().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const took = performance.now() - started;
  running = false;
  await probing;
  return { outcome, took, slowest };
}

export async function transactionBombs(target: Target): Promise<void> {
  const client = clientFor(target.server.baseUrl, target.root, target.organizationId);
  const { walletId } = await client.createWallet({
    walletName: "transaction bombs",
    accounts: [BITCOIN_SEGWIT_ACCOUNT, BITCOIN_TAPROOT_ACCOUNT, ETHEREUM_ACCOUNT, SOLANA_ACCOUNT],
  });
  const { accounts } = await client.getWalletAccounts({ walletId });
  const segwit = accounts.find((account) => account.addressFormat.endsWith("_P2WPKH"));
  const taproot = accounts.find((account) => account.addressFormat.endsWith("_P2TR"));
  const ethereum = accounts.find((account) => account.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
  const solana = accounts.find((account) => account.addressFormat === "ADDRESS_FORMAT_SOLANA");
  if (!segwit?.publicKey || !taproot || !ethereum || !solana) throw new Error("the wallet lacks an account");
  const probe = () => client.getWhoami({ organizationId: target.organizationId });
  const sign = (signWith: string, unsignedTransaction: string) => () =>
    client.signTransaction({ signWith, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction });
  await probe();

  const segwitScript = p2wpkh(Uint8Array.from(Buffer.from(segwit.publicKey, "hex"))).script;
  const bomb = await slowestProbeDuring(probe, sign(segwit.address, psbt(segwitScript, 1_500, 1)));
  const refused = !bomb.outcome.ok && /INVALID_ARGUMENT|at most/.test(String(bomb.outcome.error));
  check("a PSBT of 1,500 inputs of the key is refused (INVALID_ARGUMENT)", refused, String(bomb.outcome.ok));
  figure("PSBT of 1,500 inputs: answered in", bomb.took, "ms");
  figure("PSBT of 1,500 inputs: slowest concurrent whoami", bomb.slowest, "ms");

  const taprootScript = OutScript.encode(Address(NETWORK).decode(taproot.address));
  const largestPsbt = psbt(taprootScript, 250, 250);
  // Once to warm the server's code paths (a first call also compiles them), then measured.
  await sign(taproot.address, largestPsbt)();
  const largest = await slowestProbeDuring(probe, sign(taproot.address, largestPsbt));
  check(
    "the largest allowed PSBT (250 taproot inputs, 250 outputs) is signed",
    largest.outcome.ok,
    String(!largest.outcome.ok && largest.outcome.error),
  );
  figure("largest allowed PSBT: signed in", largest.took, "ms");
  figure("largest allowed PSBT: slowest concurrent whoami", largest.slowest, "ms");
  // About 100 ms of event loop is the aim; a shared machine's scheduling gets some slack before it is a failure.
  check(
    "the largest allowed PSBT keeps whoami under 250 ms",
    largest.slowest < 250,
    `${Math.round(largest.slowest)} ms`,
  );

  // 200 outputs of bare 16-of-16 multisig: each key once took a square root on the curve when the outputs'
  // addresses were spelled for policies (over a second); now the scripts are matched by bytes.
  const multisigKey = secp256k1.getPublicKey(new Uint8Array(32).fill(4), true);
  const multisig = Script.encode([16, ...Array<Uint8Array>(16).fill(multisigKey), 16, "CHECKMULTISIG"]);
  const keys = await slowestProbeDuring(probe, sign(taproot.address, psbt(taprootScript, 1, 200, multisig)));
  check(
    "a PSBT paying 200 bare 16-of-16 multisig outputs is signed",
    keys.outcome.ok,
    String(!keys.outcome.ok && keys.outcome.error),
  );
  figure("PSBT of 200 multisig outputs: signed in", keys.took, "ms");
  figure("PSBT of 200 multisig outputs: slowest concurrent whoami", keys.slowest, "ms");

  await typedDataBombs(client, ethereum.address, probe);
  await ethereumBombs(client, ethereum.address, probe);
  await solanaBombs(client, solana.address, probe);
}

type Probe = () => Promise<unknown>;

/** Records whether `outcome` was refused as INVALID_ARGUMENT, and its figures. */
function refusedCase(name: string, run: Awaited<ReturnType<typeof slowestProbeDuring>>): void {
  const refused = !run.outcome.ok && /INVALID_ARGUMENT|at most|more than/.test(String(run.outcome.error));
  check(`${name} is refused (INVALID_ARGUMENT)`, refused, String(run.outcome.ok || run.outcome.error));
  figure(`${name}: answered in`, run.took, "ms");
  figure(`${name}: slowest concurrent whoami`, run.slowest, "ms");
}

function signedCase(name: string, run: Awaited<ReturnType<typeof slowestProbeDuring>>): void {
  check(`${name} is signed`, run.outcome.ok, String(!run.outcome.ok && run.outcome.error));
  figure(`${name}: signed in`, run.took, "ms");
  figure(`${name}: slowest concurrent whoami`, run.slowest, "ms");
}

async function typedDataBombs(client: ReturnType<typeof clientFor>, signWith: string, probe: Probe) {
  const typed = { encoding: "PAYLOAD_ENCODING_EIP712", hashFunction: "HASH_FUNCTION_NO_OP" } as const;
  // 62 KiB: 16,000 values `{}` of a type of 500 struct members, 501 words each: 256 MB to hash, once tens of seconds.
  const wide = absentMembers(500, 16_000);
  refusedCase(
    "EIP-712 of 16,000 values with 500 absent members each",
    await slowestProbeDuring(probe, () => client.signRawPayload({ signWith, payload: wide, ...typed })),
  );
  // A thousand documents of 150 values of 10 absent members each, just under the 1 MiB body: each alone is small,
  // together they hash 53 MB, once seconds.
  const batch = Array(1_000).fill(absentMembers(10, 150));
  refusedCase(
    "sign_raw_payloads of 1,000 EIP-712 documents (1 MiB)",
    await slowestProbeDuring(probe, () => client.signRawPayloads({ signWith, payloads: batch, ...typed })),
  );
  // The dearest document that passes: a uint256[] of one-digit values filling the 64 KiB payload.
  const numbers = (values: number[]) =>
    JSON.stringify({
      types: { Numbers: [{ name: "values", type: "uint256[]" }] },
      primaryType: "Numbers",
      domain: { name: "bombs", chainId: 1 },
      message: { values },
    });
  const count = Math.floor((64 * 1024 - numbers([]).length + 1) / 2);
  const largest = numbers(Array.from({ length: count }, (_, index) => index % 10));
  signedCase(
    `EIP-712 uint256[] of ${count} values (64 KiB)`,
    await slowestProbeDuring(probe, () => client.signRawPayload({ signWith, payload: largest, ...typed })),
  );
}

async function ethereumBombs(client: ReturnType<typeof clientFor>, signWith: string, probe: Probe) {
  const sign = (unsignedTransaction: string) => () =>
    client.signTransaction({ signWith, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction });
  refusedCase(
    "Ethereum access list of 5,600 addresses",
    await slowestProbeDuring(probe, sign(accessListTransaction(5_600))),
  );
  signedCase(
    "Ethereum access list of 1,024 addresses",
    await slowestProbeDuring(probe, sign(accessListTransaction(1_024))),
  );
}

async function solanaBombs(client: ReturnType<typeof clientFor>, signWith: string, probe: Probe) {
  const payer = base58.decode(signWith);
  const program = new Uint8Array(32).fill(7);
  const sign = (unsignedTransaction: string) => () =>
    client.signTransaction({ signWith, type: "TRANSACTION_TYPE_SOLANA", unsignedTransaction });
  const empty = Array.from({ length: 43_000 }, () => new Uint8Array(0));
  refusedCase(
    "Solana transaction of 43,000 instructions (128 KiB)",
    await slowestProbeDuring(probe, sign(solanaTransaction(payer, program, empty))),
  );
  const names = Array.from({ length: 4_000 }, (_, index) => `call${index}`);
  await client.createSmartContractInterface({
    smartContractAddress: base58.encode(program),
    smartContractInterface: JSON.stringify({ instructions: names.map((name) => ({ name, accounts: [], args: [] })) }),
    type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
    label: "transaction bombs",
  });
  const last = sha256(new TextEncoder().encode("global:call3999")).subarray(0, 8);
  const calls = Array.from({ length: 1_000 }, () => last);
  signedCase(
    "Solana: 1,000 instructions against an IDL of 4,000",
    await slowestProbeDuring(probe, sign(solanaTransaction(payer, program, calls))),
  );
}
