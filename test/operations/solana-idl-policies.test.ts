/**
 * A Solana IDL stored with `create_smart_contract_interface` decodes the instructions of `sign_transaction` for
 * policies (`solana.tx.instructions[i].parsed_instruction_data`), end to end through the engine.
 */
import { Keypair, PublicKey, Transaction, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { addPolicy, organizationWithMembers } from "../support/consensus.js";

const DISCRIMINATOR = [242, 35, 198, 137, 82, 225, 242, 182];
const IDL = {
  address: "",
  metadata: { name: "vault", version: "0.1.0", spec: "0.1.0" },
  instructions: [
    {
      name: "deposit",
      discriminator: DISCRIMINATOR,
      accounts: [
        { name: "user", writable: true, signer: true },
        { name: "vault", writable: true },
      ],
      args: [{ name: "amount", type: "u64" }],
    },
  ],
};

function deposit(program: PublicKey, user: PublicKey, amount: bigint): string {
  const data = Buffer.alloc(16);
  data.set(DISCRIMINATOR);
  data.writeBigUInt64LE(amount, 8);
  const tx = new Transaction().add(
    new TransactionInstruction({
      programId: program,
      keys: [
        { pubkey: user, isSigner: true, isWritable: true },
        { pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true },
      ],
      data,
    }),
  );
  tx.recentBlockhash = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
  tx.feePayer = user;
  return Buffer.from(tx.serialize({ requireAllSignatures: false })).toString("hex");
}

async function setUp(storeIdl: boolean) {
  const { root, organizationId, members } = await organizationWithMembers(["agent"]);
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "solana",
      accounts: [SOLANA_ACCOUNT],
    },
  });
  const [signWith] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [string];
  const program = Keypair.generate().publicKey;
  if (storeIdl) {
    await root.createSmartContractInterface({
      organizationId,
      parameters: {
        smartContractAddress: program.toBase58(),
        smartContractInterface: JSON.stringify({ ...IDL, address: program.toBase58() }),
        type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
        label: "vault",
      },
    });
  }
  await addPolicy(root, organizationId, {
    policyName: "small vault deposits",
    effect: "EFFECT_ALLOW",
    condition:
      "solana.tx.instructions[0].parsed_instruction_data.instruction_name == 'deposit' && " +
      `solana.tx.instructions[0].parsed_instruction_data.named_accounts['user'] == '${signWith}' && ` +
      "solana.tx.instructions[0].parsed_instruction_data.program_call_args['amount'] < 100",
  });
  const sign = async (amount: bigint) => {
    try {
      await members.agent.as.signTransaction({
        organizationId,
        parameters: {
          signWith,
          type: "TRANSACTION_TYPE_SOLANA",
          unsignedTransaction: deposit(program, new PublicKey(signWith), amount),
        },
      });
      return "ALLOW";
    } catch (error) {
      if (error instanceof CustodyError && error.code === "PERMISSION_DENIED") return "DENY";
      throw error;
    }
  };
  return { sign };
}

describe("Solana instructions decoded by a stored IDL", () => {
  it("allow and deny on the decoded instruction name, accounts and arguments", async () => {
    const { sign } = await setUp(true);
    expect(await sign(25n)).toBe("ALLOW");
    expect(await sign(500n)).toBe("DENY");
  });

  it("leave the instruction undecoded without an IDL, so the policy allows nothing", async () => {
    const { sign } = await setUp(false);
    expect(await sign(25n)).toBe("DENY");
  });
});
