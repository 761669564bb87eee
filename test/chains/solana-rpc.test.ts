/**
 * The Solana JSON-RPC client against the litesvm devnet shim, with `@solana/web3.js` building and signing the
 * transactions and reading balances through its own `Connection`, so the shim is checked against an official
 * client too.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpChainBackend } from "../../src/chains/registry.js";
import { ChainRpcError, ChainUnreachable } from "../../src/chains/rpc.js";
import { SolanaRpc } from "../../src/chains/solana-rpc.js";
import { type SolanaDevnet, startSolanaDevnet } from "../support/solana-devnet.js";

let devnet: SolanaDevnet;

const solanaRpc = (url: string, timeoutMs?: number) => new SolanaRpc(httpChainBackend(url, { timeoutMs }));

beforeAll(async () => {
  devnet = await startSolanaDevnet();
});
afterAll(async () => {
  await devnet.close();
});

async function transfer(from: Keypair, to: PublicKey, lamports: number): Promise<Uint8Array> {
  const { blockhash } = await solanaRpc(devnet.url).latestBlockhash();
  const transaction = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
  );
  transaction.sign(from);
  return transaction.serialize();
}

describe("solanaRpc on the litesvm devnet", () => {
  it("broadcasts a signed transfer, reports its status, and the balances move", async () => {
    const rpc = solanaRpc(devnet.url);
    const payer = Keypair.generate();
    const recipient = Keypair.generate().publicKey;
    devnet.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));

    const signature = await rpc.sendTransaction(await transfer(payer, recipient, 1_000_000));
    const [status] = await rpc.signatureStatuses([signature]);

    expect(status).toMatchObject({ err: null, confirmationStatus: "finalized" });
    const connection = new Connection(devnet.url, "confirmed");
    expect(await connection.getBalance(recipient)).toBe(1_000_000);
    expect(await connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL - 1_000_000 - 5000);
    const fetched = await connection.getSignatureStatus(signature);
    expect(fetched.value?.confirmationStatus).toBe("finalized");
  });

  it("reads a held transaction as processed until it is confirmed, and unknown signatures as null", async () => {
    const rpc = solanaRpc(devnet.url);
    const payer = Keypair.generate();
    devnet.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    devnet.holdConfirmations = true;
    try {
      const signature = await rpc.sendTransaction(await transfer(payer, Keypair.generate().publicKey, 1_000_000));
      const unknown = Keypair.generate().publicKey.toBase58().repeat(2).slice(0, 88);
      expect(await rpc.signatureStatuses([signature, unknown])).toEqual([
        expect.objectContaining({ confirmationStatus: "processed" }),
        null,
      ]);
      devnet.confirmAll();
      const [status] = await rpc.signatureStatuses([signature]);
      expect(status?.confirmationStatus).toBe("finalized");
    } finally {
      devnet.holdConfirmations = false;
    }
  });

  it("gives the node's refusal of a failing transaction as an rpc error with its simulation", async () => {
    const rpc = solanaRpc(devnet.url);
    const payer = Keypair.generate();
    devnet.airdrop(payer.publicKey.toBase58(), 2_000_000n);
    const sent = devnet.sent.length;

    const error = await rpc
      .sendTransaction(await transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ChainRpcError);
    expect(error).toMatchObject({ code: -32002 });
    expect((error as ChainRpcError).data).toMatchObject({ err: { InstructionError: [0, expect.anything()] } });
    expect(devnet.sent.length).toBe(sent);
    expect(devnet.balance(payer.publicKey.toBase58())).toBe(2_000_000n);
  });

  it("refuses the same transaction twice", async () => {
    const rpc = solanaRpc(devnet.url);
    const payer = Keypair.generate();
    devnet.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const wire = await transfer(payer, Keypair.generate().publicKey, 1_000_000);

    await rpc.sendTransaction(wire);
    await expect(rpc.sendTransaction(wire)).rejects.toMatchObject({ name: "ChainRpcError", code: -32002 });
    expect(devnet.balance(payer.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL) - 1_000_000n - 5000n);
  });

  it("reports a node that cannot be reached as unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const error = await solanaRpc(`http://127.0.0.1:${port}`)
      .latestBlockhash()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ChainUnreachable);
    expect(error).toMatchObject({ method: "getLatestBlockhash", reason: "ECONNREFUSED" });
  });

  it("gives up on a node that does not answer within the timeout", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await expect(solanaRpc(`http://127.0.0.1:${port}`, 50).latestBlockhash()).rejects.toThrow(
        /no answer within 50 ms/,
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("treats an answer that is not JSON-RPC as a transport failure", async () => {
    const teapot = createServer((_request, response) => {
      response.writeHead(418, { "content-type": "text/plain" });
      response.end("short and stout");
    });
    await new Promise<void>((resolve) => teapot.listen(0, "127.0.0.1", resolve));
    const { port } = teapot.address() as AddressInfo;
    try {
      await expect(solanaRpc(`http://127.0.0.1:${port}`).latestBlockhash()).rejects.toMatchObject({
        name: "ChainUnreachable",
        reason: "HTTP 418 without a JSON body",
      });
    } finally {
      await new Promise((resolve) => teapot.close(resolve));
    }
  });

  it("answers @solana/web3.js's blockhash and airdrop calls", async () => {
    const connection = new Connection(devnet.url, "confirmed");
    const { blockhash } = await connection.getLatestBlockhash();
    expect(blockhash).toBe((await solanaRpc(devnet.url).latestBlockhash()).blockhash);
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
    const owner = new PublicKey(Keypair.generate().publicKey);
    await connection.requestAirdrop(owner, 1_500_000);
    expect(await connection.getBalance(owner)).toBe(1_500_000);
  });
});
