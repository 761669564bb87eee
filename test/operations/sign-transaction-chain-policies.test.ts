/**
 * The Solana, Tron and Bitcoin cases of the policy sample (`test/vectors/policy/policy-cases.sample.json`) end to
 * end: each case's transaction is built with the chain's own library (@solana/web3.js and @solana/spl-token,
 * tronweb, bitcoinjs-lib) from its `solana.tx` / `tron.tx` / `bitcoin.tx`, its policies are created in a fresh
 * organization, and the transaction is signed through `sign_transaction` by the case's submitter. The decision
 * must be the case's `expected`.
 *
 * The sample's signer is an address nobody holds the key of, so it is replaced, in the transaction and in the
 * policies alike, by the address of a wallet account the engine made; user ids are replaced by the engine's.
 */
import { createTransferCheckedInstruction } from "@solana/spl-token";
import { PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { TronWeb, utils as tronUtils } from "tronweb";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { bitcoin } from "../support/bitcoin.js";
import { addPolicy, organizationWithMembers } from "../support/consensus.js";
import cases from "../vectors/policy/policy-cases.sample.json" with { type: "json" };

type Chain = "solana" | "tron" | "bitcoin";
type Fields = Record<string, unknown>;

interface SampleCase {
  name: string;
  policies: { effect: "EFFECT_ALLOW" | "EFFECT_DENY"; condition?: string; consensus?: string }[];
  context: {
    approvers: { id: string }[];
    wallet_account: { address: string };
    solana?: { tx: Fields };
    tron?: { tx: Fields };
    bitcoin?: { tx: Fields };
  };
  expected: "ALLOW" | "DENY" | "CONSENSUS_NEEDED";
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const ACCOUNTS = {
  solana: { curve: "CURVE_ED25519", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" },
  tron: { curve: "CURVE_SECP256K1", path: "m/44'/195'/0'/0/0", addressFormat: "ADDRESS_FORMAT_TRON" },
  bitcoin: {
    curve: "CURVE_SECP256K1",
    path: "m/84'/1'/0'/0/0",
    addressFormat: "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH",
  },
} as const;

const TRANSACTION_TYPES = {
  solana: "TRANSACTION_TYPE_SOLANA",
  tron: "TRANSACTION_TYPE_TRON",
  bitcoin: "TRANSACTION_TYPE_BITCOIN",
} as const;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The case's Solana transfers and SPL transfers as web3.js and spl-token build them, paid by the signer. */
function solanaTransaction(tx: Fields, signer: string): string {
  const transaction = new Transaction();
  for (const transfer of tx.transfers as { from: string; to: string; amount: number }[]) {
    transaction.add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(transfer.from),
        toPubkey: new PublicKey(transfer.to),
        lamports: BigInt(transfer.amount),
      }),
    );
  }
  for (const transfer of tx.spl_transfers as {
    from: string;
    to: string;
    amount: number;
    owner: string;
    token_mint: string;
  }[]) {
    // The sample's instruction data carries the decimals (TransferChecked: tag, u64 amount, u8 decimals).
    const data = Buffer.from((tx.instructions as { instruction_data_hex: string }[])[0]!.instruction_data_hex, "hex");
    transaction.add(
      createTransferCheckedInstruction(
        new PublicKey(transfer.from),
        new PublicKey(transfer.token_mint),
        new PublicKey(transfer.to),
        new PublicKey(transfer.owner),
        BigInt(transfer.amount),
        data[9]!,
      ),
    );
  }
  transaction.recentBlockhash = tx.recent_blockhash as string;
  transaction.feePayer = new PublicKey(signer);
  return hex(transaction.serialize({ requireAllSignatures: false, verifySignatures: false }));
}

/** The case's Tron contract as tronweb encodes it offline. */
function tronTransaction(tx: Fields): string {
  const [contract] = tx.contract as Fields[];
  const { type, permission_id: _permission, ...fields } = contract as Fields & { type: string };
  const value = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      name.endsWith("address") ? TronWeb.address.toHex(field as string) : field,
    ]),
  );
  const raw_data = {
    contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type }],
    ref_block_bytes: tx.ref_block_bytes,
    ref_block_hash: tx.ref_block_hash,
    expiration: tx.expiration,
    timestamp: tx.timestamp,
    fee_limit: tx.fee_limit,
  };
  return tronUtils.transaction.txPbToRawDataHex(
    tronUtils.transaction.txJsonToPb({ visible: false, raw_data } as never),
  );
}

/** The case's Bitcoin transaction as a bitcoinjs-lib PSBT whose one input, of the signer, pays outputs and fee. */
function bitcoinTransaction(tx: Fields, signer: string): string {
  const network = bitcoin.networks.testnet;
  const outputs = tx.outputs as { value: number; address: string }[];
  const spent = outputs.reduce((sum, output) => sum + BigInt(output.value), BigInt(tx.fee as number));
  const psbt = new bitcoin.Psbt({ network });
  psbt.setVersion(Number(tx.version));
  psbt.setLocktime((tx.locktime as { amount: number }).amount);
  for (const input of tx.inputs as { tx_id: string; vout: number; sequence: number }[]) {
    psbt.addInput({
      hash: input.tx_id,
      index: input.vout,
      sequence: input.sequence,
      witnessUtxo: { script: bitcoin.address.toOutputScript(signer, network), value: spent },
    });
  }
  for (const output of outputs) psbt.addOutput({ address: output.address, value: BigInt(output.value) });
  return psbt.toHex();
}

const BUILDERS: Record<Chain, (tx: Fields, signer: string) => string> = {
  solana: solanaTransaction,
  tron: tronTransaction,
  bitcoin: bitcoinTransaction,
};

const chainOf = (sample: SampleCase): Chain | undefined =>
  (["solana", "tron", "bitcoin"] as const).find((chain) => sample.context[chain] !== undefined);

const chainCases = (cases as unknown as SampleCase[]).filter((sample) => chainOf(sample) !== undefined);

async function decide(sample: SampleCase): Promise<"ALLOW" | "DENY" | "CONSENSUS_NEEDED"> {
  const chain = chainOf(sample)!;
  const userIds = [...new Set(sample.context.approvers.map((approver) => approver.id))];
  const { root, organizationId, members } = await organizationWithMembers(userIds.map((_, i) => `member-${i}`));
  const ids = new Map<string, string>(userIds.map((id, i) => [id, members[`member-${i}`]!.userId]));
  const { activity: created } = await root.createWallet({
    organizationId,
    parameters: { walletName: chain, accounts: [{ ...ACCOUNTS[chain], pathFormat: "PATH_FORMAT_BIP32" }] },
  });
  const [signWith] = (created.result!.createWalletResult as { addresses: string[] }).addresses as [string];

  // The sample's signer becomes the engine's account, everywhere it appears.
  const sampleSigner = sample.context.wallet_account.address;
  const swap = (text: string) =>
    text
      .split(sampleSigner)
      .join(signWith)
      .replace(UUID, (id) => ids.get(id) ?? id);
  const tx = JSON.parse(swap(JSON.stringify(sample.context[chain]!.tx))) as Fields;
  for (const [i, policy] of sample.policies.entries()) {
    await addPolicy(root, organizationId, {
      policyName: `policy ${i}`,
      effect: policy.effect,
      ...(policy.condition ? { condition: swap(policy.condition) } : {}),
      ...(policy.consensus ? { consensus: swap(policy.consensus) } : {}),
    });
  }

  const submitter = members["member-0"]!;
  try {
    const { activity } = await submitter.as.signTransaction({
      organizationId,
      parameters: { signWith, type: TRANSACTION_TYPES[chain], unsignedTransaction: BUILDERS[chain](tx, signWith) },
    });
    if (activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") return "CONSENSUS_NEEDED";
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    return "ALLOW";
  } catch (error) {
    if (error instanceof CustodyError && error.code === "PERMISSION_DENIED") return "DENY";
    throw error;
  }
}

describe("the sample's Solana, Tron and Bitcoin policy cases, end to end", () => {
  it("has cases for every chain", () => {
    expect(new Set(chainCases.map(chainOf))).toEqual(new Set(["solana", "tron", "bitcoin"]));
  });

  for (const sample of chainCases) {
    it(`${sample.name}: ${sample.expected}`, async () => {
      expect(await decide(sample)).toBe(sample.expected);
    });
  }

  // The outcomes above could come from any clause; these variants flip the one clause each case is about.
  const variant = (name: string, change: (tx: Fields) => void): SampleCase => {
    const sample = structuredClone(chainCases.find((c) => c.name === name)!);
    change(sample.context[chainOf(sample)!]!.tx);
    return sample;
  };

  it("denies a SOL transfer from another sender", async () => {
    const sample = variant("every SOL transfer from one sender", (tx) => {
      (tx.transfers as Fields[])[0]!.from = "GdnSyH3YtwcxFvQrVVJMm1JhTS4QVX7MFsX56uJLUfiZ";
    });
    expect(await decide(sample)).toBe("DENY");
  });

  it("allows the SPL transfer under the threshold", async () => {
    const sample = variant("SPL transfer amount over threshold", (tx) => {
      (tx.spl_transfers as Fields[])[0]!.amount = 400000;
    });
    expect(await decide(sample)).toBe("ALLOW");
  });

  it("denies a TRC-20 call on another contract", async () => {
    const sample = variant("TRC-20 transfer on the Nile USDT contract", (tx) => {
      (tx.contract as Fields[])[0]!.contract_address = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    });
    expect(await decide(sample)).toBe("DENY");
  });

  it("allows the Bitcoin fee once under the cap, and denies an output over the limit", async () => {
    const cheaper = variant("fee cap under 10000 sats", (tx) => {
      tx.fee = 9000;
    });
    expect(await decide(cheaper)).toBe("ALLOW");
    const over = variant("all outputs under 200000 sats", (tx) => {
      (tx.outputs as Fields[])[0]!.value = 250000;
    });
    expect(await decide(over)).toBe("DENY");
  });
});
