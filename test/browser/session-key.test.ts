/**
 * The session key of `@turnkey/core` in a browser: a non-extractable P-256 `CryptoKey` in IndexedDB, the
 * session JWT in localStorage. The bundled app creates a wallet and signs a message and an EIP-1559
 * transaction with it, also after a reload; viem checks both signatures here, in Node.
 */
import {
  type Hex,
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppPage, type BrowserBench, startBrowserBench } from "../support/browser.js";

const TRANSACTION: TransactionSerializableEIP1559 = {
  type: "eip1559",
  chainId: 31337,
  nonce: 7,
  to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  value: 1_000_000_000_000_000n,
  gas: 21_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  data: "0x",
};

let bench: BrowserBench;
let app: AppPage;

beforeAll(async () => {
  bench = await startBrowserBench();
  app = await bench.openApp();
  await app.call("signUpWithPasskey", "bob");
}, 90_000);

afterAll(async () => {
  if (!bench) return;
  const problems = bench.problems();
  await bench.close();
  expect(problems).toEqual({ serverErrors: [], pageErrors: [] });
});

/** Signs the message and the transaction in the page and checks both with viem. */
async function signAndVerify(message: string, nonce: number) {
  const signedMessage = await app.call("signMessage", "main", message);
  const recovered = await recoverMessageAddress({
    message,
    signature: { r: `0x${signedMessage.r}`, s: `0x${signedMessage.s}`, yParity: Number.parseInt(signedMessage.v, 16) },
  });
  expect(recovered).toBe(signedMessage.address);

  const unsigned = serializeTransaction({ ...TRANSACTION, nonce });
  const { address, signedTransaction } = await app.call("signTransaction", "main", unsigned);
  expect(address).toBe(signedMessage.address);
  const signed = `0x${signedTransaction.replace(/^0x/, "")}` as Hex;
  // The signed transaction is the one sent, with a signature added.
  const { r: _r, s: _s, v: _v, yParity, ...fields } = parseTransaction(signed);
  expect(yParity === 0 || yParity === 1).toBe(true);
  expect(serializeTransaction(fields as TransactionSerializableEIP1559)).toBe(unsigned);
  expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(address);
  return address;
}

describe("@turnkey/core's IndexedDB session key in Chromium", { timeout: 60_000 }, () => {
  it("keeps the session key as a non-extractable CryptoKey in IndexedDB", async () => {
    const session = await app.call("session");
    expect(session?.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const keys = await app.call("storedKeys");
    expect(keys).toContainEqual({ publicKey: session?.publicKey, type: "private", extractable: false });
    // The short-lived key the sign-up stamped its first log-in with is gone.
    expect(keys).toHaveLength(1);
  });

  it("creates a wallet, signs a message and an EIP-1559 transaction, and signs again after a reload", async () => {
    const address = await signAndVerify("hello from Chromium", 7);
    const before = await app.call("session");

    await app.page.reload();
    await app.waitForState("ready");
    const after = await app.call("session");
    expect(after).toMatchObject({ publicKey: before?.publicKey, organizationId: before?.organizationId });
    expect(await signAndVerify("hello again", 8)).toBe(address);
  });

  it("forgets the key and the session at log-out", async () => {
    await app.call("logout");
    expect(await app.call("session")).toBeUndefined();
    expect(await app.call("storedKeys")).toEqual([]);
    await expect(app.call("signMessage", "main", "after log-out")).rejects.toThrow(/session/i);
  });
});
