/**
 * `sign_transaction` for Ethereum through the engine: every key kind `signWith` can name, the wire forms the
 * clients send, and the refusals (malformed transactions, keys that cannot sign) with only the FAILED activity
 * stored.
 */
import {
  type Hex,
  parseEther,
  parseGwei,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializable,
  toRlp,
} from "viem";
import { describe, expect, it } from "vitest";
import { MAX_UNSIGNED_TRANSACTION_LENGTH } from "../../src/crypto/tx/index.js";
import type { CustodyEngine } from "../../src/index.js";
import { ETHEREUM_ACCOUNT, SOLANA_ACCOUNT } from "../../src/testing/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

const FIELD = "parameters.unsignedTransaction";
const recipient = "0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432" as const;
const eip1559: TransactionSerializable = {
  type: "eip1559",
  chainId: 1,
  nonce: 7,
  to: recipient,
  value: parseEther("0.01"),
  gas: 21_000n,
  maxFeePerGas: parseGwei("30"),
  maxPriorityFeePerGas: parseGwei("1"),
};

async function setup() {
  const fixture = await engineWithOrganization();
  const { root, organizationId } = fixture;
  const { activity } = await root.createWallet({
    organizationId,
    parameters: {
      walletName: "w",
      accounts: [ETHEREUM_ACCOUNT, SOLANA_ACCOUNT],
    },
  });
  const [ethAddress, solAddress] = (activity.result!.createWalletResult as { addresses: Hex[] }).addresses as [
    Hex,
    string,
  ];
  return { ...fixture, ethAddress, solAddress };
}

async function sign(root: CustodyEngine, organizationId: string, signWith: string, unsignedTransaction: string) {
  const { activity } = await root.signTransaction({
    organizationId,
    parameters: { signWith, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction },
  });
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  expect(activity.type).toBe("ACTIVITY_TYPE_SIGN_TRANSACTION_V2");
  return (activity.result!.signTransactionResult as { signedTransaction: string }).signedTransaction;
}

describe("sign_transaction (Ethereum)", () => {
  it("answers lowercase hex without 0x, whether the request had 0x or not, in any case", async () => {
    const { root, organizationId, ethAddress } = await setup();
    const serialized = serializeTransaction(eip1559);
    const signed = await sign(root, organizationId, ethAddress, serialized.slice(2));
    expect(signed).toMatch(/^02[0-9a-f]+$/);
    expect(await recoverTransactionAddress({ serializedTransaction: `0x${signed}` as never })).toBe(ethAddress);
    // Deterministic (RFC 6979): the same transaction in another spelling signs to the same bytes.
    expect(await sign(root, organizationId, ethAddress, serialized)).toBe(signed);
    expect(await sign(root, organizationId, ethAddress.toLowerCase(), serialized.slice(2).toUpperCase())).toBe(signed);
  });

  it("signs with a private key named by id or by address", async () => {
    const { root, organizationId } = await setup();
    const { activity } = await root.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "k",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
        ],
      },
    });
    const [key] = (
      activity.result!.createPrivateKeysResultV2 as {
        privateKeys: { privateKeyId: string; addresses: { address: Hex }[] }[];
      }
    ).privateKeys;
    const address = key!.addresses[0]!.address;
    const serialized = serializeTransaction({
      type: "legacy",
      chainId: 1,
      nonce: 7,
      to: recipient,
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei("20"),
    });
    for (const signWith of [key!.privateKeyId, address]) {
      const signed = await sign(root, organizationId, signWith, serialized.slice(2));
      expect(await recoverTransactionAddress({ serializedTransaction: `0x${signed}` as never })).toBe(address);
    }
  });

  it("refuses malformed transactions with INVALID_ARGUMENT naming the field, storing only the FAILED activity", async () => {
    const { root, organizationId, ethAddress, solAddress } = await setup();
    const valid = serializeTransaction(eip1559).slice(2);
    const signed = await sign(root, organizationId, ethAddress, valid);
    // An EIP-1559 body whose chain id is a list instead of an integer.
    const listChainId = `02${toRlp([["0x01"], "0x07", "0x01", "0x1e", "0x5208", recipient, "0x", "0x", []]).slice(2)}`;
    // The fields of an EIP-1559 transaction under the EIP-2930 type byte: the type does not match the payload.
    const mismatchedType = `01${valid.slice(2)}`;
    const malformed: [string, string][] = [
      [valid.slice(0, valid.length - 10), "truncated RLP"],
      [listChainId, "a chain id that is a list"],
      [mismatchedType, "a type byte that does not match the payload"],
      [`${valid}00`, "trailing bytes"],
      ["zz11", "garbage hex"],
      ["0x123", "an odd number of hex digits"],
      ["AQABAgMEBQYHCAkKCwwNDg8Q", "base64 (another chain's payload)"],
      [`76${valid.slice(2)}`, "a Tempo transaction"],
      ["0x", "no bytes"],
      [signed, "an already signed transaction"],
    ];
    const count = async () =>
      (await root.getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities.length;
    let expected = await count();
    for (const [unsignedTransaction, what] of malformed) {
      const error = await expectCustodyError(
        root.signTransaction({
          organizationId,
          parameters: { signWith: ethAddress, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction },
        }),
        "INVALID_ARGUMENT",
        FIELD,
      );
      expect(error.message, what).toContain(FIELD);
      expected++;
      const [failed] = (
        await root.getActivities({
          organizationId,
          filterByStatus: ["ACTIVITY_STATUS_FAILED"],
          paginationOptions: { limit: "1" },
        })
      ).activities;
      expect(failed?.id, what).toBe(error.details.activityId);
    }
    expect(await count()).toBe(expected);

    // Keys that cannot sign an Ethereum transaction are refused naming signWith.
    await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: { signWith: solAddress, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: valid },
      }),
      "INVALID_ARGUMENT",
      "parameters.signWith",
    );
    await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: {
          signWith: "0x000000000000000000000000000000000000dEaD",
          type: "TRANSACTION_TYPE_ETHEREUM",
          unsignedTransaction: valid,
        },
      }),
      "NOT_FOUND",
      "parameters.signWith",
    );

    // Schema refusals store nothing: an oversized transaction and an unknown type.
    const before = await count();
    await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: {
          signWith: ethAddress,
          type: "TRANSACTION_TYPE_ETHEREUM",
          unsignedTransaction: "00".repeat(MAX_UNSIGNED_TRANSACTION_LENGTH / 2 + 1),
        },
      }),
      "INVALID_ARGUMENT",
      FIELD,
    );
    await expectCustodyError(
      root.signTransaction({
        organizationId,
        parameters: { signWith: ethAddress, type: "TRANSACTION_TYPE_DOGE" as never, unsignedTransaction: valid },
      }),
      "INVALID_ARGUMENT",
      "parameters.type",
    );
    expect(await count()).toBe(before);
  });
});
