/**
 * Transaction bombs (issue #31): `sign_transaction` requests under the body limit that once held the event loop
 * for seconds (a PSBT of 1,500 inputs of the signer's key; one paying 200 bare multisig outputs of 16 keys each),
 * and the dearest PSBT the bounds still allow (250 taproot inputs of the key, 250 taproot outputs). While each is
 * in flight a cheap request (`get_whoami`) is sent again and again; its slowest answer is the figure of how long
 * the bomb held the server's event loop.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { Address, NETWORK, OutScript, p2wpkh, Script, Transaction } from "@scure/btc-signer";
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

function psbt(script: Uint8Array, inputs: number, outputs: number, payTo: Uint8Array = script): string {
  const tx = new Transaction({ allowUnknownOutputs: true, disableScriptCheck: true });
  for (let index = 0; index < inputs; index++) {
    const txid = new Uint8Array(32);
    new DataView(txid.buffer).setUint32(0, index + 1);
    tx.addInput({ txid, index: 0, witnessUtxo: { script, amount: 10_000n } });
  }
  for (let index = 0; index < outputs; index++) tx.addOutput({ script: payTo, amount: 1_000n });
  return Buffer.from(tx.toPSBT()).toString("hex");
}

export async function transactionBombs(target: Target): Promise<void> {
  const client = clientFor(target.server.baseUrl, target.root, target.organizationId);
  const { walletId } = await client.createWallet({
    walletName: "transaction bombs",
    accounts: [
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/84'/0'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH",
      },
      {
        curve: "CURVE_SECP256K1",
        pathFormat: "PATH_FORMAT_BIP32",
        path: "m/86'/0'/0'/0/0",
        addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR",
      },
    ],
  });
  const { accounts } = await client.getWalletAccounts({ walletId });
  const segwit = accounts.find((account) => account.addressFormat.endsWith("_P2WPKH"));
  const taproot = accounts.find((account) => account.addressFormat.endsWith("_P2TR"));
  if (!segwit?.publicKey || !taproot) throw new Error("the wallet has no P2WPKH and P2TR accounts");
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
}
