/**
 * `sol_send_transaction` end to end on the litesvm devnet: `@turnkey/sdk-server`'s `solSendTransaction` (V2,
 * hex) and `pollTransactionStatus` over the HTTP adapter, `@turnkey/http`'s V1 call with base64, the transfer
 * built by `@solana/web3.js` as Turnkey's examples build it; the balances and the signature checked on the
 * devnet. A transaction several of the organization's keys must sign is signed by all of them, each key
 * decided by policies (a deny on one stops it, a consensus one needs holds it until approved). Then the
 * refusals: a `solana.tx` deny policy, an unknown chain, an unreachable RPC (and its retry), a signer nobody
 * holds, a failing transfer refused by the node's preflight (and a node whose refusal carries megabytes of logs),
 * and sponsoring.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient } from "@turnkey/http";
import { Turnkey, type TurnkeyApiClient } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustodyEngine } from "../../src/index.js";
import { SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import { type HostileNode, startHostileNode } from "../support/hostile-node.js";
import { type RunningServer, serve } from "../support/server.js";
import { type SolanaDevnet, startSolanaDevnet } from "../support/solana-devnet.js";

const CHAIN = "solana:devnet";
let devnet: SolanaDevnet;
let server: RunningServer;
let engine: CustodyEngine;
let root: ReturnType<CustodyEngine["as"]>;
let organizationId: string;
let api: TurnkeyApiClient;
let httpClient: TurnkeyClient;
let sender: string;
let deadPort: number;
let hostile: HostileNode;

async function latestBlockhash(): Promise<string> {
  const response = await fetch(devnet.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] }),
  });
  return ((await response.json()) as { result: { value: { blockhash: string } } }).result.value.blockhash;
}

/** A v0 transfer from `from`, serialized unsigned, as Turnkey's Solana examples build it. */
function transferV0(from: string, to: PublicKey, lamports: number, blockhash: string): Uint8Array {
  const payerKey = new PublicKey(from);
  const message = new TransactionMessage({
    payerKey,
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payerKey, toPubkey: to, lamports })],
  }).compileToV0Message();
  return new VersionedTransaction(message).serialize();
}

/** A v0 transfer from `from` whose fee `payer` pays: both must sign. */
function coSignedTransfer(payer: string, from: string, to: PublicKey, lamports: number, blockhash: string) {
  const message = new TransactionMessage({
    payerKey: new PublicKey(payer),
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: to, lamports })],
  }).compileToV0Message();
  return new VersionedTransaction(message);
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** A new Ed25519 private key of the organization, with its Solana address. */
async function solanaPrivateKey(privateKeyName: string): Promise<{ privateKeyId: string; address: string }> {
  const { activity } = await root.createPrivateKeys({
    organizationId,
    parameters: {
      privateKeys: [
        { privateKeyName, curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
      ],
    },
  });
  const [key] = (
    activity.result!.createPrivateKeysResultV2 as {
      privateKeys: { privateKeyId: string; addresses: { address: string }[] }[];
    }
  ).privateKeys;
  return { privateKeyId: key!.privateKeyId, address: key!.addresses[0]!.address };
}

/** A new non-root user of the organization, and the engine acting as them. */
async function newMember(userName: string): Promise<{ userId: string; as: CustodyEngine }> {
  const { activity } = await root.createUsers({
    organizationId,
    parameters: { users: [{ userName, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] },
  });
  const userId = (activity.result!.createUsersResult as { userIds: string[] }).userIds[0]!;
  return { userId, as: engine.as({ userId }) };
}

/** Creates a policy as the root user and returns its id. */
async function policy(parameters: {
  policyName: string;
  effect: "EFFECT_ALLOW" | "EFFECT_DENY";
  condition: string;
  consensus?: string;
}): Promise<string> {
  const { activity } = await root.createPolicy({ organizationId, parameters: { notes: "", ...parameters } });
  return (activity.result!.createPolicyResult as { policyId: string }).policyId;
}

beforeAll(async () => {
  devnet = await startSolanaDevnet();
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  deadPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));

  hostile = await startHostileNode({ kind: "result", result: null });
  const fixture = await engineWithOrganization({
    chains: {
      [CHAIN]: devnet.url,
      "solana:localnet-down": `http://127.0.0.1:${deadPort}`,
      "solana:localnet-hostile": hostile.url,
    },
    sendStatusPollIntervalMs: 20,
  });
  ({ engine, root, organizationId } = fixture);
  server = await serve(engine);
  const credentials = { apiPublicKey: fixture.rootKey.publicKey, apiPrivateKey: fixture.rootKey.privateKey };
  api = new Turnkey({ apiBaseUrl: server.baseUrl, ...credentials, defaultOrganizationId: organizationId }).apiClient();
  httpClient = new TurnkeyClient({ baseUrl: server.baseUrl }, new ApiKeyStamper(credentials));
  const wallet = await api.createWallet({
    walletName: "Solana",
    accounts: [SOLANA_ACCOUNT],
  });
  [sender] = wallet.addresses as [string];
  devnet.airdrop(sender, 10n * BigInt(LAMPORTS_PER_SOL));
});

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await devnet?.close();
  await hostile?.close();
});

describe("sol_send_transaction on the litesvm devnet", () => {
  it("sends a transfer through sdk-server's solSendTransaction (V2) and polls it to INCLUDED", async () => {
    const recipient = Keypair.generate().publicKey;
    const before = devnet.balance(sender);

    const { sendTransactionStatusId } = await api.solSendTransaction({
      unsignedTransaction: hex(transferV0(sender, recipient, 2_000_000, await latestBlockhash())),
      signWiths: [sender],
      caip2: CHAIN,
    });
    const status = await api.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });

    expect(status.txStatus).toBe("INCLUDED");
    const signature = status.solana?.signature;
    expect(devnet.sent).toContain(signature);
    expect(devnet.balance(recipient.toBase58())).toBe(2_000_000n);
    expect(devnet.balance(sender)).toBe(before - 2_000_000n - 5000n);
  });

  it("sends a legacy transfer in base64 through @turnkey/http's V1 call, the blockhash set from recentBlockhash", async () => {
    const recipient = Keypair.generate().publicKey;
    const transaction = new Transaction({
      feePayer: new PublicKey(sender),
      recentBlockhash: "11111111111111111111111111111111",
    }).add(SystemProgram.transfer({ fromPubkey: new PublicKey(sender), toPubkey: recipient, lamports: 3_000_000 }));
    const unsigned = transaction.serialize({ requireAllSignatures: false, verifySignatures: false });

    // @turnkey/http types this path with V2 only; @turnkey/core sends V1 with exactly this body.
    const response = await httpClient.solSendTransaction({
      type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION" as never,
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        unsignedTransaction: Buffer.from(unsigned).toString("base64"),
        signWith: sender,
        caip2: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
        recentBlockhash: await latestBlockhash(),
      } as never,
    });
    const result = response.activity.result as { solSendTransactionResult?: { sendTransactionStatusId: string } };
    const id = result.solSendTransactionResult?.sendTransactionStatusId as string;
    const status = await api.pollTransactionStatus({ sendTransactionStatusId: id, pollingIntervalMs: 20 });

    expect(status.txStatus).toBe("INCLUDED");
    expect(devnet.balance(recipient.toBase58())).toBe(3_000_000n);
  });

  it("fetches a recent blockhash for a message with the placeholder, and waits for confirmation", async () => {
    const recipient = Keypair.generate().publicKey;
    devnet.holdConfirmations = true;
    try {
      const { activity } = await root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(transferV0(sender, recipient, 1_000_000, "11111111111111111111111111111111")),
          signWiths: [sender],
          caip2: CHAIN,
        },
      });
      const id = activity.result?.solSendTransactionResultV2.sendTransactionStatusId as string;
      const waiting = await root.getSendTransactionStatus({ organizationId, sendTransactionStatusId: id });
      expect(waiting.txStatus).toBe("BROADCASTED");
      expect(devnet.balance(recipient.toBase58())).toBe(1_000_000n);

      devnet.confirmAll();
      const status = await api.pollTransactionStatus({ sendTransactionStatusId: id, pollingIntervalMs: 20 });
      expect(status).toMatchObject({ txStatus: "INCLUDED", solana: { signature: waiting.solana?.signature } });
    } finally {
      devnet.holdConfirmations = false;
    }
  });

  it("is decided by solana.tx policies: a member allowed to sign is stopped by a deny before the chain is asked", async () => {
    const recipient = Keypair.generate().publicKey;
    const { activity: users } = await root.createUsers({
      organizationId,
      parameters: {
        users: [{ userName: "trader", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      },
    });
    const traderId = (users.result!.createUsersResult as { userIds: string[] }).userIds[0]!;
    const trader = engine.as({ userId: traderId });
    await root.createPolicies({
      organizationId,
      parameters: {
        policies: [
          {
            policyName: "the trader signs",
            effect: "EFFECT_ALLOW",
            consensus: `approvers.any(user, user.id == '${traderId}')`,
            condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
            notes: "",
          },
          {
            policyName: "no transfers to the blocked address",
            effect: "EFFECT_DENY",
            condition: `solana.tx.transfers.any(t, t.to == '${recipient.toBase58()}')`,
            notes: "",
          },
        ],
      },
    });
    const sends = devnet.sendCount();
    const send = async (to: PublicKey) =>
      trader.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(transferV0(sender, to, 1_000_000, await latestBlockhash())),
          signWiths: [sender],
          caip2: CHAIN,
        },
      });

    await expectCustodyError(send(recipient), "PERMISSION_DENIED");
    expect(devnet.sendCount()).toBe(sends);
    expect(devnet.balance(recipient.toBase58())).toBe(0n);

    const allowed = Keypair.generate().publicKey;
    const { activity } = await send(allowed);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(devnet.balance(allowed.toBase58())).toBe(1_000_000n);
  });

  it("refuses a chain the host did not name, naming it", async () => {
    const error = await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(
            transferV0(sender, Keypair.generate().publicKey, 1_000_000, await latestBlockhash()),
          ),
          signWiths: [sender],
          caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        },
      }),
      "FAILED_PRECONDITION",
      "parameters.caip2",
    );
    expect(error.message).toContain("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    expect(error.details.reason).toBe("CHAIN_NOT_CONFIGURED");
  });

  it("fails clearly on an unreachable RPC, and the same request again broadcasts nothing", async () => {
    const input = {
      organizationId,
      timestampMs: String(Date.now()),
      parameters: {
        unsignedTransaction: hex(transferV0(sender, Keypair.generate().publicKey, 1_000_000, await latestBlockhash())),
        signWiths: [sender],
        caip2: "solana:localnet-down",
      },
    };
    const first = await expectCustodyError(root.solSendTransaction(input), "UNAVAILABLE");
    expect(first.message).toContain("solana:localnet-down did not answer");
    expect(first.message).not.toContain(String(deadPort));
    const again = await expectCustodyError(root.solSendTransaction(input), "UNAVAILABLE");
    expect(again.details.activityId).toBe(first.details.activityId);
    const { activity } = await root.getActivity({ organizationId, activityId: first.details.activityId as string });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
  });

  it("refuses a transaction that needs a signer this organization does not hold, before broadcasting", async () => {
    const outsider = Keypair.generate().publicKey;
    const message = new TransactionMessage({
      payerKey: new PublicKey(sender),
      recentBlockhash: await latestBlockhash(),
      instructions: [SystemProgram.transfer({ fromPubkey: outsider, toPubkey: new PublicKey(sender), lamports: 1 })],
    }).compileToV0Message();
    const sends = devnet.sendCount();

    const error = await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(new VersionedTransaction(message).serialize()),
          signWiths: [sender],
          caip2: CHAIN,
        },
      }),
      "FAILED_PRECONDITION",
    );
    expect(error.message).toContain(outsider.toBase58());
    expect(error.details.reason).toBe("MISSING_SIGNER");
    expect(devnet.sendCount()).toBe(sends);
  });

  it("names a signWiths entry the organization does not hold", async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(transferV0(stranger, new PublicKey(sender), 1_000_000, await latestBlockhash())),
          signWiths: [stranger],
          caip2: CHAIN,
        },
      }),
      "NOT_FOUND",
      "parameters.signWiths[0]",
    );
  });

  it("gives the node's preflight refusal with its logs, recording no send", async () => {
    const poor = (
      await api.createWalletAccounts({
        walletId: (await api.getWallets()).wallets[0]!.walletId,
        accounts: [
          {
            curve: "CURVE_ED25519",
            pathFormat: "PATH_FORMAT_BIP32",
            path: "m/44'/501'/1'/0'",
            addressFormat: "ADDRESS_FORMAT_SOLANA",
          },
        ],
      })
    ).addresses[0] as string;
    devnet.airdrop(poor, 2_000_000n);

    const error = await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(
            transferV0(poor, Keypair.generate().publicKey, LAMPORTS_PER_SOL, await latestBlockhash()),
          ),
          signWiths: [poor],
          caip2: CHAIN,
        },
      }),
      "FAILED_PRECONDITION",
    );
    expect(error.details.reason).toBe("CHAIN_REJECTED");
    expect(error.details.solana).toMatchObject({ source: "preflight", rpcCode: -32002 });
    expect((error.details.solana as { logs: string[] }).logs.length).toBeGreaterThan(0);
    expect(devnet.balance(poor)).toBe(2_000_000n);
  });

  it("keeps a quote of a preflight refusal's long logs and error, not all of them", async () => {
    const logs = Array.from({ length: 3000 }, (_, i) => `Program log: line ${i} ${"l".repeat(100)}`);
    hostile.answer = {
      kind: "error",
      error: {
        code: -32002,
        message: `Transaction simulation failed: ${"m".repeat(200_000)}`,
        data: { err: { InstructionError: [0, { Custom: "e".repeat(200_000) }] }, logs },
      },
    };
    const error = await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(transferV0(sender, Keypair.generate().publicKey, 1, await latestBlockhash())),
          signWiths: [sender],
          caip2: "solana:localnet-hostile",
        },
      }),
      "FAILED_PRECONDITION",
    );
    const solana = error.details.solana as { rpcMessage: string; transactionErrorJson: string; logs: string[] };
    expect(solana.rpcMessage).toMatch(/… \(200031 characters\)$/);
    expect(solana.transactionErrorJson).toMatch(/^\{"InstructionError":\[0,\{"Custom":"e+… \(\d+ characters\)$/);
    expect(solana.logs.slice(0, 3)).toEqual(logs.slice(0, 3));
    expect(solana.logs.at(-1)).toMatch(/^… \(\d+ more lines left out, \d+ characters\)$/);
    expect(solana.logs.join("").length).toBeLessThan(11_000);
    const { activity } = await root.getActivity({ organizationId, activityId: error.details.activityId as string });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(JSON.stringify(activity).length).toBeLessThan(16_000);
  });

  it("signs with every key of this organization the transaction needs, named or not, and the chain confirms it", async () => {
    const coSigner = await solanaPrivateKey("co-signer");
    devnet.airdrop(coSigner.address, BigInt(LAMPORTS_PER_SOL));
    const recipient = Keypair.generate().publicKey;
    const [senderBefore, coSignerBefore] = [devnet.balance(sender), devnet.balance(coSigner.address)];

    // sdk-server names the fee payer only; the co-signer, a required signer this organization holds, signs too.
    const { sendTransactionStatusId } = await api.solSendTransaction({
      unsignedTransaction: hex(
        coSignedTransfer(sender, coSigner.address, recipient, 4_000_000, await latestBlockhash()).serialize(),
      ),
      signWiths: [sender],
      caip2: CHAIN,
    });
    const status = await api.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });

    expect(status.txStatus).toBe("INCLUDED");
    expect(devnet.sent).toContain(status.solana?.signature);
    expect(devnet.balance(recipient.toBase58())).toBe(4_000_000n);
    expect(devnet.balance(coSigner.address)).toBe(coSignerBefore - 4_000_000n);
    // Two signatures, paid by the fee payer.
    expect(devnet.balance(sender)).toBe(senderBefore - 10_000n);

    // V1 naming the co-signer by its private key id: the fee payer is the other required signer it holds.
    const second = Keypair.generate().publicKey;
    const { activity } = await root.solSendTransaction({
      type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
      organizationId,
      parameters: {
        unsignedTransaction: Buffer.from(
          coSignedTransfer(sender, coSigner.address, second, 1_500_000, await latestBlockhash()).serialize(),
        ).toString("base64"),
        signWith: coSigner.privateKeyId,
        caip2: CHAIN,
      },
    });
    const id = activity.result?.solSendTransactionResult.sendTransactionStatusId as string;
    const sent = await api.pollTransactionStatus({ sendTransactionStatusId: id, pollingIntervalMs: 20 });
    expect(sent.txStatus).toBe("INCLUDED");
    expect(devnet.balance(second.toBase58())).toBe(1_500_000n);
    expect(devnet.balance(sender)).toBe(senderBefore - 20_000n);
  });

  it("decides each signing key: a deny on a key the request does not name stops the send before the chain is asked", async () => {
    const coSigner = await solanaPrivateKey("frozen co-signer");
    devnet.airdrop(coSigner.address, BigInt(LAMPORTS_PER_SOL));
    const { userId, as: member } = await newMember("desk");
    const allowPolicy = await policy({
      policyName: "the desk signs",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${userId}')`,
      condition: "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
    });
    const denyPolicy = await policy({
      policyName: "the frozen co-signer never signs",
      effect: "EFFECT_DENY",
      condition: `private_key.id == '${coSigner.privateKeyId}'`,
    });
    const send = async (unsigned: Uint8Array) =>
      member.solSendTransaction({
        organizationId,
        parameters: { unsignedTransaction: hex(unsigned), signWiths: [sender], caip2: CHAIN },
      });

    // The fee payer's key alone is allowed.
    const alone = Keypair.generate().publicKey;
    const { activity: allowed } = await send(transferV0(sender, alone, 1_000_000, await latestBlockhash()));
    expect(allowed.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(devnet.balance(alone.toBase58())).toBe(1_000_000n);

    // With the co-signer's key too, its deny stops it, however the request names the signers.
    const recipient = Keypair.generate().publicKey;
    const [sends, senderBefore, coSignerBefore] = [
      devnet.sendCount(),
      devnet.balance(sender),
      devnet.balance(coSigner.address),
    ];
    const transaction = coSignedTransfer(sender, coSigner.address, recipient, 1_000_000, await latestBlockhash());
    const error = await expectCustodyError(send(transaction.serialize()), "PERMISSION_DENIED");
    expect(error.message).toBe("policy engine denied request explicitly");
    expect(error.details).toMatchObject({
      decision: "EXPLICIT_DENY",
      evaluations: [{ policyId: denyPolicy, outcome: "OUTCOME_DENY_EXPLICIT" }],
    });
    await expectCustodyError(
      member.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(transaction.serialize()),
          signWiths: [coSigner.address, sender],
          caip2: CHAIN,
        },
      }),
      "PERMISSION_DENIED",
    );
    expect(devnet.sendCount()).toBe(sends);
    expect(devnet.balance(recipient.toBase58())).toBe(0n);
    expect([devnet.balance(sender), devnet.balance(coSigner.address)]).toEqual([senderBefore, coSignerBefore]);
    // The denied activity records the co-signer's decision: the allow applied, the deny won.
    const { activity } = await root.getActivity({ organizationId, activityId: error.details.activityId as string });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    const [decision] = (await engine.explainActivity(activity.id)).decisions;
    expect(decision).toMatchObject({ outcome: "DENY", reason: "EXPLICIT_DENY" });
    expect(decision!.evaluations.find((evaluation) => evaluation.policyId === allowPolicy)?.outcome).toBe(
      "OUTCOME_ALLOW",
    );
  });

  it("waits for the consensus one signing key needs, and sends once it is approved", async () => {
    const coSigner = await solanaPrivateKey("guarded co-signer");
    devnet.airdrop(coSigner.address, BigInt(LAMPORTS_PER_SOL));
    const desk = await newMember("guarded desk");
    const officer = await newMember("officer");
    const byDesk = `approvers.any(user, user.id == '${desk.userId}')`;
    await policy({
      policyName: "the desk signs with the fee payer",
      effect: "EFFECT_ALLOW",
      consensus: byDesk,
      condition: `activity.action == 'SIGN' && wallet_account.address == '${sender}'`,
    });
    const guarded = await policy({
      policyName: "the guarded co-signer needs the officer",
      effect: "EFFECT_ALLOW",
      consensus: `${byDesk} && approvers.any(user, user.id == '${officer.userId}')`,
      condition: `activity.action == 'SIGN' && private_key.id == '${coSigner.privateKeyId}'`,
    });
    const recipient = Keypair.generate().publicKey;
    const sends = devnet.sendCount();

    const { activity: pending } = await desk.as.solSendTransaction({
      organizationId,
      parameters: {
        unsignedTransaction: hex(
          coSignedTransfer(sender, coSigner.address, recipient, 2_500_000, await latestBlockhash()).serialize(),
        ),
        signWiths: [sender, coSigner.address],
        caip2: CHAIN,
      },
    });
    expect(pending.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(devnet.sendCount()).toBe(sends);
    const [waiting] = (await engine.explainActivity(pending.id)).decisions;
    expect(waiting).toMatchObject({ outcome: "CONSENSUS_NEEDED", reason: "CONSENSUS_PENDING" });
    expect(waiting!.waitingOn.map((open) => open.policyId)).toContain(guarded);

    const { activity } = await officer.as.approveActivity({
      organizationId,
      parameters: { fingerprint: pending.fingerprint },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    // A vote answers with the activity voted on, its result untyped.
    const result = activity.result as { solSendTransactionResultV2: { sendTransactionStatusId: string } };
    const { sendTransactionStatusId } = result.solSendTransactionResultV2;
    const status = await api.pollTransactionStatus({ sendTransactionStatusId, pollingIntervalMs: 20 });
    expect(status.txStatus).toBe("INCLUDED");
    expect(devnet.balance(recipient.toBase58())).toBe(2_500_000n);
  });

  it("refuses sponsor: true, which needs a gas station custodian does not have", async () => {
    await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: {
          unsignedTransaction: hex(
            transferV0(sender, Keypair.generate().publicKey, 1_000_000, await latestBlockhash()),
          ),
          signWiths: [sender],
          caip2: CHAIN,
          sponsor: true,
        },
      }),
      "UNIMPLEMENTED",
      "parameters.sponsor",
    );
  });

  it("refuses a chain id of another family and an undecodable transaction", async () => {
    await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: { unsignedTransaction: "00", signWiths: [sender], caip2: "eip155:1" },
      }),
      "INVALID_ARGUMENT",
    );
    await expectCustodyError(
      root.solSendTransaction({
        organizationId,
        parameters: { unsignedTransaction: "not a transaction!", signWiths: [sender], caip2: CHAIN },
      }),
      "INVALID_ARGUMENT",
      "parameters.unsignedTransaction",
    );
  });
});
