/**
 * custodian's batch executor on an anvil devnet, driven by viem (not by custodian's gas station): the
 * generated code is what the assembler makes of the checked-in listing; the digest custodian signs is the
 * EIP-191 packing viem computes; and an account delegating to the executor by EIP-7702 runs a batch the
 * sponsor submits only under the account's own signature, in order, all or nothing, once, on this chain,
 * before its deadline, while plain transfers of ether still reach it.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodePacked,
  type Hex,
  http,
  keccak256,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assemble, executorListing, generatedModule } from "../../scripts/batch-executor/assemble.js";
import {
  type BatchCall,
  batchCalldata,
  batchDigest,
  delegationCode,
  encodeCalls,
} from "../../src/chains/batch-executor.js";
import {
  BATCH_EXECUTOR_CREATION,
  BATCH_EXECUTOR_NONCE_SLOT,
  BATCH_EXECUTOR_RUNTIME,
} from "../../src/chains/batch-executor-code.js";
import { type RunningAnvil, startAnvil } from "../support/anvil.js";

// anvil's first funded development key: the sponsor here.
const SPONSOR_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const STORE: Address = "0x00000000000000000000000000000000000c0de1";
const REVERT: Address = "0x00000000000000000000000000000000000c0de2";
const RECIPIENT: Address = "0x000000000000000000000000000000000000beef";
// SSTORE(0, CALLDATALOAD(0)): a call stores its first word in slot 0.
const STORE_CODE = "0x5f355f5500";
// MSTORE(0, 0xdeadbeef); REVERT(28, 4): reverts with the 4 bytes 0xdeadbeef.
const REVERT_CODE = "0x63deadbeef5f526004601cfd";

let anvil: RunningAnvil;
let executor: Address;
const sponsor = privateKeyToAccount(SPONSOR_KEY);
const userKey = generatePrivateKey();
const user = privateKeyToAccount(userKey);

function clients() {
  const transport = http(anvil.rpcUrl);
  return {
    chain: createPublicClient({ chain: foundry, transport }),
    sponsor: createWalletClient({ account: sponsor, chain: foundry, transport }),
  };
}

const storeCall = (value: bigint): BatchCall => ({
  to: STORE,
  value: 0n,
  data: `0x${value.toString(16).padStart(64, "0")}`,
});
const slot0 = async (address: Address) =>
  BigInt((await clients().chain.getStorageAt({ address, slot: "0x0" })) ?? "0x0");
const batchNonce = async () =>
  BigInt(
    (await clients().chain.getStorageAt({ address: user.address, slot: BATCH_EXECUTOR_NONCE_SLOT as Hex })) ?? "0x0",
  );

/** The executor calldata for `calls`, signed by `key` for the user's account. */
async function signedBatch(
  calls: BatchCall[],
  options: { key?: Hex; nonce?: bigint; deadline?: bigint; chainId?: bigint } = {},
): Promise<Hex> {
  const block = await clients().chain.getBlock();
  const deadline = options.deadline ?? block.timestamp + 600n;
  const digest = batchDigest({
    account: user.address,
    chainId: options.chainId ?? 31337n,
    nonce: options.nonce ?? (await batchNonce()),
    deadline,
    calls,
  });
  const signature = await sign({
    hash: `0x${Buffer.from(digest).toString("hex")}`,
    privateKey: options.key ?? userKey,
    to: "object",
  });
  return batchCalldata({ r: signature.r, s: signature.s, recoveryId: signature.yParity ?? 0 }, deadline, calls) as Hex;
}

/** The sponsor submits `data` to the user's account; the receipt's status. */
async function submit(data: Hex): Promise<"success" | "reverted"> {
  const { chain, sponsor: wallet } = clients();
  const hash = await wallet.sendTransaction({ to: user.address, data, gas: 500_000n });
  return (await chain.waitForTransactionReceipt({ hash })).status;
}

beforeAll(async () => {
  anvil = await startAnvil();
  const { chain, sponsor: wallet } = clients();
  const deployed = await chain.waitForTransactionReceipt({
    hash: await wallet.sendTransaction({ data: BATCH_EXECUTOR_CREATION as Hex }),
  });
  executor = deployed.contractAddress as Address;
  await chain.request({ method: "anvil_setCode" as never, params: [STORE, STORE_CODE] as never });
  await chain.request({ method: "anvil_setCode" as never, params: [REVERT, REVERT_CODE] as never });
  await chain.request({ method: "anvil_setBalance" as never, params: [user.address, "0xde0b6b3a7640000"] as never });
  // The user delegates to the executor; the sponsor sends (and pays for) the EIP-7702 transaction.
  const authorization = await wallet.signAuthorization({ account: user, contractAddress: executor });
  const hash = await wallet.sendTransaction({ to: user.address, authorizationList: [authorization] });
  expect((await chain.waitForTransactionReceipt({ hash })).status).toBe("success");
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
});

describe("the executor's code", () => {
  it("is what the assembler makes of the checked-in listing", () => {
    expect(BATCH_EXECUTOR_RUNTIME).toBe(`0x${assemble(executorListing())}`);
    const generated = readFileSync(
      fileURLToPath(new URL("../../src/chains/batch-executor-code.ts", import.meta.url)),
      "utf8",
    );
    expect(generated).toBe(generatedModule());
  });

  it("is deployed as it was assembled, and the account shows the EIP-7702 delegation to it", async () => {
    const { chain } = clients();
    expect(await chain.getCode({ address: executor })).toBe(BATCH_EXECUTOR_RUNTIME);
    expect(await chain.getCode({ address: user.address })).toBe(delegationCode(executor));
  });

  it("signs the EIP-191 (version 0x00) packing viem computes", () => {
    const calls = [storeCall(7n), { to: RECIPIENT, value: 5n, data: "0x" }];
    const callsHash = keccak256(`0x${encodeCalls(calls)}`);
    const expected = keccak256(
      encodePacked(
        ["bytes1", "bytes1", "address", "uint256", "uint256", "uint256", "bytes32"],
        ["0x19", "0x00", user.address, 31337n, 4n, 1700000000n, callsHash],
      ),
    );
    const digest = batchDigest({ account: user.address, chainId: 31337n, nonce: 4n, deadline: 1700000000n, calls });
    expect(`0x${Buffer.from(digest).toString("hex")}`).toBe(expected);
  });
});

describe("a batch the account signed and the sponsor submits", () => {
  it("runs its calls in order, from the account, and the sponsor pays the gas", async () => {
    const { chain } = clients();
    const userBalance = await chain.getBalance({ address: user.address });
    const recipientBalance = await chain.getBalance({ address: RECIPIENT });
    const nonce = await batchNonce();
    const data = await signedBatch([
      storeCall(1n),
      storeCall(2n),
      { to: RECIPIENT, value: parseEther("0.01"), data: "0x" },
    ]);
    expect(await submit(data)).toBe("success");
    expect(await slot0(STORE)).toBe(2n);
    expect((await chain.getBalance({ address: RECIPIENT })) - recipientBalance).toBe(parseEther("0.01"));
    // The account spent the value and no gas.
    expect(userBalance - (await chain.getBalance({ address: user.address }))).toBe(parseEther("0.01"));
    expect(await batchNonce()).toBe(nonce + 1n);
  });

  it("runs once: the same signed batch again reverts", async () => {
    const data = await signedBatch([storeCall(3n)]);
    expect(await submit(data)).toBe("success");
    expect(await submit(data)).toBe("reverted");
  });

  it("reverts whole when one call fails: nothing before it stays, the nonce does not move", async () => {
    const before = await slot0(STORE);
    const nonce = await batchNonce();
    const data = await signedBatch([storeCall(99n), { to: REVERT, value: 0n, data: "0x" }]);
    const { chain } = clients();
    const failure = await chain.call({ account: sponsor.address, to: user.address, data }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(String(failure?.message)).toContain("0xdeadbeef");
    expect(await submit(data)).toBe("reverted");
    expect(await slot0(STORE)).toBe(before);
    expect(await batchNonce()).toBe(nonce);
  });
});

describe("what the executor refuses", () => {
  it("a batch signed by another key", async () => {
    expect(await submit(await signedBatch([storeCall(50n)], { key: generatePrivateKey() }))).toBe("reverted");
  });

  it("calls other than those signed", async () => {
    const signed = await signedBatch([storeCall(51n)]);
    const tampered = signed.replace(/33$/, "34") as Hex;
    expect(tampered).not.toBe(signed);
    expect(await submit(tampered)).toBe("reverted");
  });

  it("a signature for another nonce, another chain, or a passed deadline", async () => {
    const nonce = await batchNonce();
    expect(await submit(await signedBatch([storeCall(52n)], { nonce: nonce + 1n }))).toBe("reverted");
    expect(await submit(await signedBatch([storeCall(53n)], { chainId: 1n }))).toBe("reverted");
    expect(await submit(await signedBatch([storeCall(54n)], { deadline: 1n }))).toBe("reverted");
    expect(await slot0(STORE)).not.toBeGreaterThan(51n);
  });

  it("short or malformed calldata, while a plain transfer of ether still reaches the account", async () => {
    expect(await submit("0x1234")).toBe("reverted");
    const signed = await signedBatch([storeCall(55n)]);
    // A call header promising more data than there is.
    expect(await submit(`${signed.slice(0, -2)}` as Hex)).toBe("reverted");
    const { chain, sponsor: wallet } = clients();
    const before = await chain.getBalance({ address: user.address });
    const hash = await wallet.sendTransaction({ to: user.address, value: 1234n });
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect((await chain.getBalance({ address: user.address })) - before).toBe(1234n);
  });
});
