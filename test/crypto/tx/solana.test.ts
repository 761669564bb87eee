/**
 * The Solana codec against @solana/web3.js and @solana/spl-token: transactions they build, signed by the codec
 * with a prepared Ed25519 signer, read back and verified by web3.js; the policy view checked against what the
 * libraries put in.
 */
import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import {
  createTransferCheckedInstruction,
  createTransferCheckedWithFeeInstruction,
  createTransferInstruction,
  TOKEN_2022_PROGRAM_ID,
} from "@solana/spl-token";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { prepareSigner } from "../../../src/crypto/sign/index.js";
import { transactionCodec } from "../../../src/crypto/tx/index.js";
import { custodyErrorOf } from "../sign/fixtures.js";

const FIELD = "parameters.unsignedTransaction";
const SIGN_WITH = "parameters.signWith";
const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";
const codec = transactionCodec("TRANSACTION_TYPE_SOLANA", "parameters.type");

const seed = new Uint8Array(32).fill(0x31);
const ours = new PublicKey(ed25519.getPublicKey(seed));
const signingKey = { signer: prepareSigner("CURVE_ED25519", seed), publicKey: ours.toBytes() };
const recipient = Keypair.generate().publicKey;

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const unsignedHex = (tx: Transaction | VersionedTransaction) =>
  hexOf(
    tx instanceof Transaction ? tx.serialize({ requireAllSignatures: false, verifySignatures: false }) : tx.serialize(),
  );

function legacyTransfer(feePayer = ours, lamports = 1_000_000) {
  const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: ours, toPubkey: recipient, lamports }));
  tx.recentBlockhash = BLOCKHASH;
  tx.feePayer = feePayer;
  return tx;
}

/** The parts of `solana.tx` the tests look into. */
interface SolanaView {
  readonly instructions: { accounts: unknown; address_table_lookups: unknown; parsed_instruction_data?: unknown }[];
  readonly [field: string]: unknown;
}

function policyView(hex: string, interfaces: ReadonlyMap<string, unknown> = new Map()): SolanaView {
  return (codec.parse(hex, FIELD).policyData({ interfaces }) as { solana: { tx: SolanaView } }).solana.tx;
}

describe("TRANSACTION_TYPE_SOLANA signing", () => {
  it("signs a legacy transfer that web3.js verifies", async () => {
    const signed = Transaction.from(
      Buffer.from(await codec.parse(unsignedHex(legacyTransfer()), FIELD).sign(signingKey, SIGN_WITH), "hex"),
    );
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signatures[0]!.publicKey.equals(ours)).toBe(true);
  });

  it("signs a v0 transfer with a lookup table, in the signer's slot, that web3.js reads back", async () => {
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        deactivationSlot: BigInt("18446744073709551615"),
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [Keypair.generate().publicKey, recipient],
      },
    });
    const message = new TransactionMessage({
      payerKey: ours,
      recentBlockhash: BLOCKHASH,
      instructions: [SystemProgram.transfer({ fromPubkey: ours, toPubkey: recipient, lamports: 77 })],
    }).compileToV0Message([table]);
    const unsigned = new VersionedTransaction(message);
    const signed = VersionedTransaction.deserialize(
      Buffer.from(await codec.parse(unsignedHex(unsigned), FIELD).sign(signingKey, SIGN_WITH), "hex"),
    );
    expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), ours.toBytes())).toBe(true);
    expect(hexOf(signed.message.serialize())).toBe(hexOf(message.serialize()));

    const view = policyView(unsignedHex(unsigned));
    expect(view.address_table_lookups).toEqual([
      { address_table_key: table.key.toBase58(), writable_indexes: [1n], readonly_indexes: [] },
    ]);
    expect(view.instructions[0]!.accounts).toEqual([
      { account_key: ours.toBase58(), signer: true, writable: true },
      { account_key: "ADDRESS_TABLE_LOOKUP", signer: false, writable: true },
    ]);
    expect(view.instructions[0]!.address_table_lookups).toEqual([
      { address_table_key: table.key.toBase58(), index: 1n, writable: true },
    ]);
    expect(view.transfers).toEqual([{ from: ours.toBase58(), to: "ADDRESS_TABLE_LOOKUP", amount: 77n }]);
  });

  it("adds its signature at its index and leaves the fee payer's as it is", async () => {
    const payer = Keypair.generate();
    const tx = legacyTransfer(payer.publicKey);
    tx.partialSign(payer);
    const signed = Transaction.from(
      Buffer.from(await codec.parse(unsignedHex(tx), FIELD).sign(signingKey, SIGN_WITH), "hex"),
    );
    expect(signed.signatures.map((entry) => entry.publicKey.toBase58())).toEqual([
      payer.publicKey.toBase58(),
      ours.toBase58(),
    ]);
    expect(Buffer.from(signed.signatures[0]!.signature!)).toEqual(Buffer.from(tx.signatures[0]!.signature!));
    expect(signed.verifySignatures()).toBe(true);
  });

  it("refuses a key that is not a signer, or not Ed25519, naming signWith", () => {
    const other = { signer: prepareSigner("CURVE_ED25519", new Uint8Array(32).fill(9)), publicKey: new Uint8Array(32) };
    other.publicKey.set(ed25519.getPublicKey(new Uint8Array(32).fill(9)));
    const secp = {
      signer: prepareSigner("CURVE_SECP256K1", new Uint8Array(32).fill(9)),
      publicKey: new Uint8Array(33),
    };
    for (const key of [other, secp]) {
      const error = custodyErrorOf(() => codec.parse(unsignedHex(legacyTransfer()), FIELD).sign(key, SIGN_WITH));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe(SIGN_WITH);
    }
  });

  it("refuses what is not a serialized transaction, naming the transaction", () => {
    const hex = unsignedHex(legacyTransfer());
    for (const garbage of [
      "zz",
      "abc",
      "",
      "00",
      hex.slice(0, hex.length - 20),
      `${hex}00`,
      Buffer.from(hex, "hex").toString("base64"),
    ]) {
      const error = custodyErrorOf(() => codec.parse(garbage, FIELD));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.details.field).toBe(FIELD);
    }
  });
});

describe("solana.tx", () => {
  it("shows a legacy transfer as the policy cases do", () => {
    const view = policyView(unsignedHex(legacyTransfer()));
    expect(view).toEqual({
      account_keys: [ours.toBase58(), recipient.toBase58(), SystemProgram.programId.toBase58()],
      program_keys: [SystemProgram.programId.toBase58()],
      recent_blockhash: BLOCKHASH,
      instructions: [
        {
          program_key: SystemProgram.programId.toBase58(),
          accounts: [
            { account_key: ours.toBase58(), signer: true, writable: true },
            { account_key: recipient.toBase58(), signer: false, writable: true },
          ],
          instruction_data_hex: "0200000040420f0000000000",
          address_table_lookups: [],
        },
      ],
      transfers: [{ from: ours.toBase58(), to: recipient.toBase58(), amount: 1_000_000n }],
      spl_transfers: [],
      address_table_lookups: [],
    });
  });

  it("reads System TransferWithSeed as a transfer", () => {
    const base = ours;
    const from = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: from,
        basePubkey: base,
        toPubkey: recipient,
        lamports: 4242,
        seed: "vault",
        programId: SystemProgram.programId,
      }),
    );
    tx.recentBlockhash = BLOCKHASH;
    tx.feePayer = ours;
    expect(policyView(unsignedHex(tx)).transfers).toEqual([
      { from: from.toBase58(), to: recipient.toBase58(), amount: 4242n },
    ]);
  });

  it("reads SPL Transfer, TransferChecked and Token-2022 TransferCheckedWithFee as spl-token builds them", () => {
    const source = Keypair.generate().publicKey;
    const destination = Keypair.generate().publicKey;
    const mint = Keypair.generate().publicKey;
    const cosigner = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      createTransferInstruction(source, destination, ours, 5n),
      createTransferCheckedInstruction(source, mint, destination, ours, 1_000_000n, 6),
      createTransferCheckedWithFeeInstruction(
        source,
        mint,
        destination,
        ours,
        700n,
        2,
        3n,
        [cosigner],
        TOKEN_2022_PROGRAM_ID,
      ),
    );
    tx.recentBlockhash = BLOCKHASH;
    tx.feePayer = ours;
    const common = { from: source.toBase58(), to: destination.toBase58(), owner: ours.toBase58() };
    expect(policyView(unsignedHex(tx)).spl_transfers).toEqual([
      { ...common, amount: 5n, signers: [], token_mint: "" },
      { ...common, amount: 1_000_000n, signers: [], token_mint: mint.toBase58(), decimals: 6n },
      {
        ...common,
        amount: 700n,
        signers: [cosigner.toBase58()],
        token_mint: mint.toBase58(),
        decimals: 2n,
        fee: 3n,
      },
    ]);
  });
});

describe("solana.tx with a stored Anchor IDL", () => {
  const program = Keypair.generate().publicKey;
  const vault = Keypair.generate().publicKey;
  const anchorDiscriminator = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8);

  // Borsh by hand (the layout Anchor writes): u64 LE, u32-length-prefixed UTF-8, 32-byte key, option tag, enum tag.
  function depositData(discriminator: Uint8Array, amount: bigint, memo: string, option: number | null, kind: number) {
    const amountBytes = Buffer.alloc(8);
    amountBytes.writeBigUInt64LE(amount);
    const memoBytes = Buffer.from(memo, "utf8");
    const memoLength = Buffer.alloc(4);
    memoLength.writeUInt32LE(memoBytes.length);
    const optionBytes = option === null ? Buffer.from([0]) : Buffer.from([1, option]);
    return Buffer.concat([
      discriminator,
      amountBytes,
      memoLength,
      memoBytes,
      recipient.toBuffer(),
      optionBytes,
      Buffer.from([kind]),
    ]);
  }

  function txCalling(data: Buffer) {
    const tx = new Transaction().add(
      new TransactionInstruction({
        programId: program,
        keys: [
          { pubkey: ours, isSigner: true, isWritable: true },
          { pubkey: vault, isSigner: false, isWritable: true },
        ],
        data,
      }),
    );
    tx.recentBlockhash = BLOCKHASH;
    tx.feePayer = ours;
    return unsignedHex(tx);
  }

  const args = [
    { name: "amount", type: "u64" },
    { name: "memo", type: "string" },
    { name: "recipient", type: "pubkey" },
    { name: "tip", type: { option: "u8" } },
    { name: "kind", type: { defined: { name: "Kind" } } },
  ];
  const types = [{ name: "Kind", type: { kind: "enum", variants: [{ name: "Spot" }, { name: "Margin" }] } }];
  const expected = (instructionName: string, discriminator: Uint8Array) => ({
    instruction_name: instructionName,
    discriminator: hexOf(discriminator),
    named_accounts: { user: ours.toBase58(), vault: vault.toBase58() },
    program_call_args: { amount: 25n, memo: "hi", recipient: recipient.toBase58(), tip: 7n, kind: "Margin" },
  });

  it("decodes an Anchor 0.30 instruction by its discriminator", () => {
    const discriminator = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const idl = {
      address: program.toBase58(),
      instructions: [
        {
          name: "deposit",
          discriminator: [...discriminator],
          accounts: [
            { name: "user", writable: true, signer: true },
            { name: "vault", writable: true },
          ],
          args,
        },
      ],
      types,
    };
    const view = policyView(
      txCalling(depositData(discriminator, 25n, "hi", 7, 1)),
      new Map([[program.toBase58(), idl]]),
    );
    expect(view.instructions[0]!.parsed_instruction_data).toEqual(expected("deposit", discriminator));
  });

  it("decodes a pre-0.30 IDL, whose discriminator is sha256('global:<snake_case>')", () => {
    const discriminator = anchorDiscriminator("deposit_funds");
    const idl = {
      instructions: [
        {
          name: "depositFunds",
          accounts: [
            { name: "user", isMut: true, isSigner: true },
            { name: "vault", isMut: true, isSigner: false },
          ],
          args: args.map((arg) =>
            arg.name === "recipient"
              ? { ...arg, type: "publicKey" }
              : arg.name === "kind"
                ? { ...arg, type: { defined: "Kind" } }
                : arg,
          ),
        },
      ],
      types,
    };
    const view = policyView(
      txCalling(depositData(discriminator, 25n, "hi", 7, 1)),
      new Map([[program.toBase58(), idl]]),
    );
    expect(view.instructions[0]!.parsed_instruction_data).toEqual(expected("depositFunds", discriminator));
  });

  it("leaves an instruction undecoded when no IDL instruction matches or its data does not decode", () => {
    const discriminator = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const idl = { instructions: [{ name: "deposit", discriminator: [...discriminator], accounts: [], args }], types };
    const interfaces = new Map([[program.toBase58(), idl]]);
    const unknown = depositData(Uint8Array.from([9, 9, 9, 9, 9, 9, 9, 9]), 25n, "hi", 7, 1);
    const truncated = depositData(discriminator, 25n, "hi", 7, 1).subarray(0, 20);
    const badEnum = depositData(discriminator, 25n, "hi", null, 9);
    for (const data of [unknown, truncated, badEnum]) {
      expect(
        policyView(txCalling(Buffer.from(data)), interfaces).instructions[0]!.parsed_instruction_data,
      ).toBeUndefined();
    }
    const cyclic = {
      instructions: [
        {
          name: "deposit",
          discriminator: [...discriminator],
          args: [{ name: "a", type: { defined: { name: "Loop" } } }],
        },
      ],
      types: [
        { name: "Loop", type: { kind: "struct", fields: [{ name: "next", type: { defined: { name: "Loop" } } }] } },
      ],
    };
    expect(
      policyView(txCalling(depositData(discriminator, 1n, "", null, 0)), new Map([[program.toBase58(), cyclic]]))
        .instructions[0]!.parsed_instruction_data,
    ).toBeUndefined();
  });
  it("gives up quickly on hostile IDLs: shared types that multiply, and lists of zero-byte elements", () => {
    const discriminator = [1, 2, 3, 4, 5, 6, 7, 8];
    // T0 holds two T1, T1 two T2, ...: 2^30 decoders if nothing stopped it.
    const types = Array.from({ length: 31 }, (_, i) => ({
      name: `T${i}`,
      type:
        i === 30
          ? { kind: "struct", fields: [{ name: "x", type: "u8" }] }
          : {
              kind: "struct",
              fields: [
                { name: "a", type: { defined: { name: `T${i + 1}` } } },
                { name: "b", type: { defined: { name: `T${i + 1}` } } },
              ],
            },
    }));
    const wide = {
      instructions: [{ name: "wide", discriminator, args: [{ name: "t", type: { defined: { name: "T0" } } }] }],
      types,
    };
    const empty = {
      instructions: [{ name: "many", discriminator, args: [{ name: "v", type: { vec: { defined: { name: "E" } } } }] }],
      types: [{ name: "E", type: { kind: "struct", fields: [] } }],
    };
    // A 2^32 - 1 length prefix: each zero-byte element would decode without consuming anything.
    const data = Buffer.from([...discriminator, 0xff, 0xff, 0xff, 0xff]);
    for (const idl of [wide, empty]) {
      const view = policyView(txCalling(data), new Map([[program.toBase58(), idl]]));
      expect(view.instructions[0]!.parsed_instruction_data).toBeUndefined();
    }
  });
});
