/**
 * Transaction bombs: PSBTs within the body limit that ask for more work than one request may, refused before the
 * work with `INVALID_ARGUMENT` naming the transaction; and the largest PSBT the bounds allow, signed correctly
 * (checked and finalized by @scure/btc-signer itself). That the work is linear is shown by counting in
 * `test/crypto/tx/bitcoin-sighash.test.ts`.
 */
import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { Address, NETWORK, OutScript, p2pkh, p2wpkh, SigHash, Transaction } from "@scure/btc-signer";
import { Transaction as EthTransaction } from "micro-eth-signer";
import { type hashTypedData, recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import { MAX_EIP712_HASH_BLOCKS, MAX_PAYLOAD_BYTES, MAX_PAYLOADS_PER_REQUEST } from "../../src/crypto/sign/index.js";
import {
  MAX_ETHEREUM_LIST_ENTRIES,
  MAX_LEGACY_SIGHASH_BYTES,
  MAX_PSBT_INPUTS,
  MAX_PSBT_OUTPUTS,
  MAX_SOLANA_TRANSACTION_BYTES,
  MAX_UNSIGNED_TRANSACTION_LENGTH,
} from "../../src/crypto/tx/limits.js";
import { parseWithIdl } from "../../src/crypto/tx/solana-idl.js";
import type { CustodyEngineOptions } from "../../src/index.js";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { addPolicy, organizationWithMembers } from "../support/consensus.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";
import {
  absentMembers,
  accessListTransaction,
  BITCOIN_SEGWIT_ACCOUNT,
  BITCOIN_TAPROOT_ACCOUNT,
  BOMB_DOMAIN,
  psbt,
  solanaTransaction,
} from "../support/transaction-bombs.js";

const FIELD = "parameters.unsignedTransaction";

async function setup(options: CustodyEngineOptions = {}) {
  const fixture = await engineWithOrganization(options);
  const { root, organizationId } = fixture;
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "bombs",
      accounts: [BITCOIN_SEGWIT_ACCOUNT, BITCOIN_TAPROOT_ACCOUNT],
    },
  });
  const [segwit, taproot] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [
    string,
    string,
  ];
  const { account } = await root.getWalletAccount({
    organizationId,
    walletId: (activity.result!.createWalletResult as { walletId: string }).walletId,
    address: segwit,
  });
  const publicKey = Uint8Array.from(Buffer.from(account.publicKey!, "hex"));
  return { ...fixture, segwit, taproot, publicKey };
}

describe("transaction bombs", () => {
  it("refuses PSBTs with more inputs or outputs than one request may sign, before any is signed", async () => {
    const { root, organizationId, segwit, publicKey } = await setup();
    const script = p2wpkh(publicKey).script;
    const cases = [
      // Far past the bound: counted from the framing, before btc-signer decodes a field.
      psbt(script, 1_500, 1),
      // Just past it, each way.
      psbt(script, MAX_PSBT_INPUTS + 1, 1),
      psbt(script, 1, MAX_PSBT_OUTPUTS + 1),
    ];
    for (const unsignedTransaction of cases) {
      const error = await expectCustodyError(
        root.signTransaction({
          organizationId,
          parameters: { signWith: segwit, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction },
        }),
        "INVALID_ARGUMENT",
        FIELD,
      );
      expect(error.message).toMatch(/at most/);
    }
  });

  it("refuses legacy inputs whose sighashes would hash more than the bound", async () => {
    const { root, organizationId, segwit, publicKey } = await setup();
    const legacy = p2pkh(publicKey).script;
    // Each legacy input serializes the whole transaction again: n inputs of about 41 bytes hash about 41·n² bytes.
    const inputs = Math.ceil(Math.sqrt(MAX_LEGACY_SIGHASH_BYTES / 41)) + 10;
    expect(inputs).toBeLessThanOrEqual(MAX_PSBT_INPUTS);
    const error = await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: {
          signWith: segwit,
          type: "TRANSACTION_TYPE_BITCOIN",
          unsignedTransaction: psbt(legacy, inputs, 1),
        },
      }),
      "INVALID_ARGUMENT",
      FIELD,
    );
    expect(error.details.limit).toBe(MAX_LEGACY_SIGHASH_BYTES);
  });

  it("signs the largest PSBT the bounds allow, every input of the key, as btc-signer checks and finalizes it", async () => {
    const { root, organizationId, segwit, taproot, publicKey } = await setup();
    for (const [signWith, spends] of [
      [segwit, p2wpkh(publicKey).script],
      [taproot, undefined],
    ] as const) {
      let script: Uint8Array | undefined = spends;
      if (!script) {
        // The taproot account's output script, from its address.
        script = OutScript.encode(Address(NETWORK).decode(taproot));
      }
      const unsignedTransaction = psbt(script, MAX_PSBT_INPUTS, MAX_PSBT_OUTPUTS);
      const { activity } = await root.signTransaction({
        organizationId,
        parameters: { signWith, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const signed = Transaction.fromPSBT(
        Buffer.from((activity.result!.signTransactionResult as { signedTransaction: string }).signedTransaction, "hex"),
      );
      expect(signed.inputsLength).toBe(MAX_PSBT_INPUTS);
      // Every signature verifies (noble) against btc-signer's own sighash of its input.
      const scripts = Array.from({ length: signed.inputsLength }, () => script);
      const amounts = Array.from({ length: signed.inputsLength }, () => 10_000n);
      for (let index = 0; index < signed.inputsLength; index++) {
        const input = signed.getInput(index);
        if (spends) {
          const [[key, signature]] = input.partialSig as [[Uint8Array, Uint8Array]];
          const digest = signed.preimageWitnessV0(index, p2pkh(publicKey).script, SigHash.ALL, 10_000n);
          expect(secp256k1.verify(signature.subarray(0, -1), digest, key, { format: "der", prehash: false })).toBe(
            true,
          );
        } else {
          const digest = signed.preimageWitnessV1(index, scripts, SigHash.DEFAULT, amounts);
          expect(schnorr.verify(input.tapKeySig as Uint8Array, digest, script.subarray(2))).toBe(true);
        }
      }
      signed.finalize();
      expect(signed.isFinal).toBe(true);
      expect(signed.extract().length).toBeGreaterThan(0);
    }
  });
});

async function ethereumSetup() {
  const fixture = await engineWithOrganization();
  const { root, organizationId } = fixture;
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "typed data bombs",
      accounts: [ETHEREUM_ACCOUNT],
    },
  });
  const [address] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [string];
  return { ...fixture, address };
}

describe("EIP-712 bombs", () => {
  it("refuses a document whose absent struct members would hash far more than its size", async () => {
    const { root, organizationId, address } = await ethereumSetup();
    // 2,000 values `{}`, 12 KB of JSON: each hashes 101 words (its type hash and 100 zero words), 47,000 blocks.
    const payload = absentMembers(100, 2_000);
    expect(payload.length).toBeLessThan(MAX_PAYLOAD_BYTES);
    const error = await expectCustodyError(
      root.signRawPayload({
        organizationId,
        parameters: {
          signWith: address,
          payload,
          encoding: "PAYLOAD_ENCODING_EIP712",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      }),
      "INVALID_ARGUMENT",
      "parameters.payload",
    );
    expect(error.details.limit).toBe(MAX_EIP712_HASH_BLOCKS);
  });

  it("charges the documents of one sign_raw_payloads to one budget", async () => {
    const { root, organizationId, address } = await ethereumSetup();
    // Each document alone hashes about 40 × 11 words (about 100 blocks): well within the bound, but not 1,000 of them.
    const payload = absentMembers(10, 40);
    const error = await expectCustodyError(
      root.signRawPayloads({
        organizationId,
        parameters: {
          signWith: address,
          payloads: Array(MAX_PAYLOADS_PER_REQUEST).fill(payload),
          encoding: "PAYLOAD_ENCODING_EIP712",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
      }),
      "INVALID_ARGUMENT",
    );
    expect(error.details.field).toMatch(/^parameters\.payloads\[[0-9]+\]$/);
    expect(error.details.limit).toBe(MAX_EIP712_HASH_BLOCKS);
    // The same document alone is signed.
    const { activity } = await root.signRawPayloads({
      organizationId,
      parameters: {
        signWith: address,
        payloads: Array(10).fill(payload),
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("signs the largest list of integers a payload holds, over viem's digest", async () => {
    const { root, organizationId, address } = await ethereumSetup();
    const numbers = (values: number[]) => ({
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "chainId", type: "uint256" },
        ],
        Numbers: [{ name: "values", type: "uint256[]" }],
      },
      primaryType: "Numbers",
      domain: BOMB_DOMAIN,
      message: { values },
    });
    // One-digit values: each adds two characters ("7,") to the document, which is filled to the byte.
    const count = Math.floor((MAX_PAYLOAD_BYTES - JSON.stringify(numbers([])).length + 1) / 2);
    const doc = numbers(Array.from({ length: count }, (_, index) => index % 10));
    const payload = JSON.stringify(doc);
    expect(payload.length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const { activity } = await root.signRawPayload({
      organizationId,
      parameters: {
        signWith: address,
        payload,
        encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NO_OP",
      },
    });
    const signature = activity.result!.signRawPayloadResult as { r: string; s: string; v: string };
    const recovered = await recoverTypedDataAddress({
      ...(doc as unknown as Parameters<typeof hashTypedData>[0]),
      signature: `0x${signature.r}${signature.s}${Number.parseInt(signature.v, 16) === 0 ? "1b" : "1c"}`,
    } as never);
    expect(recovered.toLowerCase()).toBe(address.toLowerCase());
  });
});

describe("Solana bombs", () => {
  async function solanaSetup() {
    const fixture = await organizationWithMembers(["agent"]);
    const { root, organizationId } = fixture;
    const { activity } = await root.createWallet({
      organizationId,
      parameters: { walletName: "solana bombs", accounts: [SOLANA_ACCOUNT] },
    });
    const [signWith] = (activity.result!.createWalletResult as { addresses: string[] }).addresses as [string];
    return { ...fixture, signWith, payer: base58.decode(signWith) };
  }

  it("refuses a transaction larger than the bound before decoding it", async () => {
    const { root, organizationId, signWith, payer } = await solanaSetup();
    const program = new Uint8Array(32).fill(7);
    // 43,000 empty instructions in 128 KiB: far past anything the network carries.
    const instructions = Array.from({ length: 43_000 }, () => new Uint8Array(0));
    const unsignedTransaction = solanaTransaction(payer, program, instructions);
    expect(unsignedTransaction.length).toBeLessThanOrEqual(MAX_UNSIGNED_TRANSACTION_LENGTH);
    const error = await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: { signWith, type: "TRANSACTION_TYPE_SOLANA", unsignedTransaction },
      }),
      "INVALID_ARGUMENT",
      FIELD,
    );
    expect(error.details.limit).toBe(MAX_SOLANA_TRANSACTION_BYTES);
  });

  it("reads each IDL instruction once however many instructions a transaction has", () => {
    // Counted, not timed: each IDL instruction's name is read through a getter.
    let reads = 0;
    const instructions = Array.from({ length: 4_000 }, (_, index) => ({
      get name() {
        reads++;
        return `call${index}`;
      },
      accounts: [],
      args: [],
    }));
    const interfaces = new Map([["program", { instructions }]]);
    const data = sha256(new TextEncoder().encode("global:call3999")).subarray(0, 8);
    for (let index = 0; index < 1_000; index++) {
      const parsed = parseWithIdl({ programKey: "program", accounts: [], data }, interfaces);
      expect(parsed?.instruction_name).toBe("call3999");
    }
    // Once to index, once for its discriminator, once when shown: not once per instruction of the transaction.
    expect(reads).toBeLessThan(4_000 * 4);
  });

  it("decodes a thousand instructions against an IDL of thousands, each by its discriminator", async () => {
    // End to end, what the counting test above shows: each instruction of the transaction once computed the
    // discriminator of every IDL instruction before its own (this request took about 25 s, 4 million SHA-256).
    const { root, organizationId, signWith, payer, members } = await solanaSetup();
    const program = new Uint8Array(32).fill(7);
    const names = Array.from({ length: 4_000 }, (_, index) => `call${index}`);
    await root.createSmartContractInterface({
      organizationId,
      parameters: {
        smartContractAddress: base58.encode(program),
        smartContractInterface: JSON.stringify({
          instructions: names.map((name) => ({ name, accounts: [], args: [] })),
        }),
        type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
        label: "wide",
      },
    });
    await addPolicy(root, organizationId, {
      policyName: "the last call only",
      effect: "EFFECT_ALLOW",
      condition:
        "solana.tx.instructions[0].parsed_instruction_data.instruction_name == 'call3999' && " +
        "solana.tx.instructions[999].parsed_instruction_data.instruction_name == 'call3999'",
    });
    // Anchor's discriminator before 0.30: the first 8 bytes of sha256("global:<name>").
    const last = sha256(new TextEncoder().encode("global:call3999")).subarray(0, 8);
    const unsignedTransaction = solanaTransaction(
      payer,
      program,
      Array.from({ length: 1_000 }, () => last),
    );
    const { activity } = await members.agent.as.signTransaction({
      organizationId,
      parameters: { signWith, type: "TRANSACTION_TYPE_SOLANA", unsignedTransaction },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});

describe("Ethereum bombs", () => {
  it("refuses a transaction whose lists hold more entries than the bound, and signs one at the bound", async () => {
    const { root, organizationId, address } = await ethereumSetup();
    const sign = (unsignedTransaction: string) =>
      root.signTransaction({
        organizationId,
        parameters: { signWith: address, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction },
      });
    // 5,600 addresses fill the 256 Ki characters; each once cost a checksum when decoded.
    const error = await expectCustodyError(sign(accessListTransaction(5_600)), "INVALID_ARGUMENT", FIELD);
    expect(error.details.limit).toBe(MAX_ETHEREUM_LIST_ENTRIES);
    await expectCustodyError(sign(accessListTransaction(MAX_ETHEREUM_LIST_ENTRIES + 1)), "INVALID_ARGUMENT", FIELD);
    const { activity } = await sign(accessListTransaction(MAX_ETHEREUM_LIST_ENTRIES));
    const signed = EthTransaction.fromHex(
      `0x${(activity.result!.signTransactionResult as { signedTransaction: string }).signedTransaction}`,
    );
    expect(signed.sender.toLowerCase()).toBe(address.toLowerCase());
  });
});

describe("a PSBT signed outside the store transaction", () => {
  it("lets other activities write while its inputs are signed", async () => {
    // With signer threads the pipeline ends the activity's transaction before the handler's signing: an
    // activity submitted right after the PSBT is recorded while the PSBT is still being signed (signing gives
    // the event loop back every 25 signatures), where it once queued behind the whole signing.
    const { engine, root, organizationId, taproot } = await setup({
      signerThreads: 1,
      deliverWebhooks: false,
    });
    try {
      const script = OutScript.encode(Address(NETWORK).decode(taproot));
      const parameters = {
        signWith: taproot,
        type: "TRANSACTION_TYPE_BITCOIN" as const,
        unsignedTransaction: psbt(script, MAX_PSBT_INPUTS, 1),
      };
      const finished: string[] = [];
      const signing = root.signTransaction({ organizationId, parameters }).then((answer) => {
        finished.push("psbt");
        return answer;
      });
      const tagging = root
        .createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: "meanwhile", privateKeyIds: [] } })
        .then(() => finished.push("tag"));
      const [{ activity }] = await Promise.all([signing, tagging]);
      expect(finished).toEqual(["tag", "psbt"]);
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const signed = Transaction.fromPSBT(
        Buffer.from((activity.result!.signTransactionResult as { signedTransaction: string }).signedTransaction, "hex"),
      );
      expect(signed.getInput(MAX_PSBT_INPUTS - 1).tapKeySig).toBeDefined();
    } finally {
      await engine.close();
    }
  });
});
