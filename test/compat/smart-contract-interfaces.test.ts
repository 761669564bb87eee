/**
 * Smart contract interfaces through the HTTP adapter with @turnkey/http, and the ABI-decoded policy that
 * @turnkey/gas-station's `buildPaymasterExecutionPolicy` writes (lowercase addresses, `contract_call_args`
 * by argument name, `eth.tx.gasPrice`), enforced on a real transaction.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import {
  encodeFunctionData,
  type Hex,
  parseAbi,
  parseGwei,
  recoverTransactionAddress,
  serializeTransaction,
} from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { ETHEREUM_ACCOUNT } from "../../src/testing/index.js";
import { organizationWithMembers } from "../support/consensus.js";
import { engineWithOrganization, p256KeyPair } from "../support/engine.js";
import { type RunningServer, serve } from "../support/server.js";

// The function @turnkey/gas-station's policy helpers decode ("execute(address _target, address _to,
// uint256 _ethAmount, bytes _data)", packages/gas-station/src/policyUtils.ts).
const GAS_STATION_ABI = parseAbi([
  "function execute(address _target, address _to, uint256 _ethAmount, bytes _data)",
  "function executeBatch(address _target, (address to, uint256 value, bytes data)[] _calls, bytes _data)",
]);
const GAS_STATION = "0x5aF5194B4b0909eB978e3Cf1e25333852277f07D";
const ALICE = "0x00000000000000000000000000000000000a11ce";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const IDL = JSON.stringify({
  address: "11111111111111111111111111111111",
  metadata: { name: "system" },
  instructions: [],
});

const closeLater: RunningServer[] = [];

function clientFor(baseUrl: string, key: { publicKey: string; privateKey: string }) {
  return new TurnkeyClient(
    { baseUrl },
    new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
  );
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TurnkeyRequestError);
  return error as TurnkeyRequestError;
}

const body = (organizationId: string, parameters: Record<string, unknown>) => ({
  type: "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE" as const,
  organizationId,
  timestampMs: String(Date.now()),
  parameters: parameters as never,
});

afterAll(async () => {
  for (const running of closeLater) {
    expect(running.errors).toEqual([]);
    await running.close();
  }
});

describe("smart contract interfaces", () => {
  it("creates, gets, lists and deletes Ethereum ABIs and Solana IDLs", async () => {
    const fixture = await engineWithOrganization();
    const server = await serve(fixture.engine);
    closeLater.push(server);
    const { organizationId } = fixture;
    const client = clientFor(server.baseUrl, fixture.rootKey);

    const created = await client.createSmartContractInterface(
      body(organizationId, {
        smartContractAddress: GAS_STATION,
        smartContractInterface: JSON.stringify(GAS_STATION_ABI),
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "Gas Station",
        notes: "execution contract",
      }),
    );
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const id = created.activity.result.createSmartContractInterfaceResult!.smartContractInterfaceId;
    const idl = await client.createSmartContractInterface(
      body(organizationId, {
        smartContractAddress: "11111111111111111111111111111111",
        smartContractInterface: IDL,
        type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
        label: "System program",
      }),
    );
    const idlId = idl.activity.result.createSmartContractInterfaceResult!.smartContractInterfaceId;

    const { smartContractInterface } = await client.getSmartContractInterface({
      organizationId,
      smartContractInterfaceId: id,
    });
    expect(smartContractInterface).toMatchObject({
      organizationId,
      smartContractInterfaceId: id,
      smartContractAddress: GAS_STATION,
      smartContractInterface: JSON.stringify(GAS_STATION_ABI),
      type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      label: "Gas Station",
      notes: "execution contract",
    });
    expect(smartContractInterface.createdAt.seconds).toMatch(/^[0-9]+$/);
    const listed = await client.getSmartContractInterfaces({ organizationId });
    expect(listed.smartContractInterfaces.map((i) => i.smartContractInterfaceId).sort()).toEqual([id, idlId].sort());
    expect(listed.smartContractInterfaces.find((i) => i.smartContractInterfaceId === idlId)?.notes).toBe("");

    // One interface per contract: the same address in another spelling is the same contract.
    const duplicate = await refusal(
      client.createSmartContractInterface(
        body(organizationId, {
          smartContractAddress: GAS_STATION.toLowerCase(),
          smartContractInterface: "[]",
          type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
          label: "again",
        }),
      ),
    );
    expect(duplicate.code).toBe(6); // ALREADY_EXISTS

    const deleted = await client.deleteSmartContractInterface({
      type: "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
      organizationId,
      timestampMs: String(Date.now()),
      parameters: { smartContractInterfaceId: id },
    });
    expect(deleted.activity.result.deleteSmartContractInterfaceResult?.smartContractInterfaceId).toBe(id);
    const gone = await refusal(client.getSmartContractInterface({ organizationId, smartContractInterfaceId: id }));
    expect(gone.code).toBe(5); // NOT_FOUND
    expect((await client.getSmartContractInterfaces({ organizationId })).smartContractInterfaces).toHaveLength(1);

    // Another organization of the same engine cannot reach this one's interface by id.
    const otherKey = p256KeyPair();
    const other = await fixture.engine.createOrganization({
      organizationName: "Other",
      rootUsers: [
        {
          userName: "other root",
          apiKeys: [{ apiKeyName: "k", publicKey: otherKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
        },
      ],
      rootQuorumThreshold: 1,
    });
    const stranger = clientFor(server.baseUrl, otherKey);
    const hidden = await refusal(
      stranger.getSmartContractInterface({ organizationId: other.organizationId, smartContractInterfaceId: idlId }),
    );
    expect(hidden.code).toBe(5); // NOT_FOUND, as for an id that does not exist
    const notDeleted = await refusal(
      stranger.deleteSmartContractInterface({
        type: "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
        organizationId: other.organizationId,
        timestampMs: String(Date.now()),
        parameters: { smartContractInterfaceId: idlId },
      }),
    );
    expect(notDeleted.code).toBe(5);
    expect((await client.getSmartContractInterfaces({ organizationId })).smartContractInterfaces).toHaveLength(1);
  });

  it("refuses interfaces it could not use, naming the field", async () => {
    const fixture = await engineWithOrganization();
    const running = await serve(fixture.engine);
    closeLater.push(running);
    const client = clientFor(running.baseUrl, fixture.rootKey);
    const ethereum = {
      smartContractAddress: GAS_STATION,
      smartContractInterface: JSON.stringify(GAS_STATION_ABI),
      type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      label: "x",
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ethereum, smartContractInterface: "{not json" }, "parameters.smartContractInterface"],
      [{ ...ethereum, smartContractInterface: '{"abi": []}' }, "parameters.smartContractInterface"],
      [
        { ...ethereum, smartContractInterface: '[{"type":"function","name":"f","inputs":[{"type":"uint7"}]}]' },
        "parameters.smartContractInterface",
      ],
      [{ ...ethereum, smartContractAddress: "0x1234" }, "parameters.smartContractAddress"],
      [
        { ...ethereum, type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA", smartContractInterface: IDL },
        "parameters.smartContractAddress",
      ],
      [
        {
          ...ethereum,
          type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
          smartContractAddress: "11111111111111111111111111111111",
        },
        "parameters.smartContractInterface",
      ],
      [{ ...ethereum, type: "SMART_CONTRACT_INTERFACE_TYPE_TON" }, "parameters.type"],
      [{ ...ethereum, smartContractInterface: "x".repeat(400 * 1024 + 1) }, "parameters.smartContractInterface"],
    ];
    for (const [parameters, field] of cases) {
      const error = await refusal(client.createSmartContractInterface(body(fixture.organizationId, parameters)));
      expect(error.code, field).toBe(3); // INVALID_ARGUMENT
      expect(JSON.stringify(error.details), field).toContain(field);
    }
    expect(
      (await client.getSmartContractInterfaces({ organizationId: fixture.organizationId })).smartContractInterfaces,
    ).toEqual([]);
  });
});

describe("an ABI-decoded policy as @turnkey/gas-station writes it", () => {
  it("allows execute() calls within its restrictions and denies the others", async () => {
    const { engine, root, organizationId, rootUserId, members } = await organizationWithMembers(["paymaster"]);
    const running = await serve(engine);
    closeLater.push(running);
    const paymaster = clientFor(running.baseUrl, members.paymaster.key);
    const { activity } = await root.createWallet({
      organizationId,
      parameters: {
        walletName: "paymaster",
        accounts: [ETHEREUM_ACCOUNT],
      },
    });
    const signWith = (activity.result!.createWalletResult as { addresses: Hex[] }).addresses[0]!;
    await root.createSmartContractInterface({
      organizationId,
      parameters: {
        smartContractAddress: GAS_STATION,
        smartContractInterface: JSON.stringify(GAS_STATION_ABI),
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "Gas Station",
      },
    });
    // The condition buildPaymasterExecutionPolicy builds for these restrictions.
    await root.createPolicy({
      organizationId,
      parameters: {
        policyName: "Gas Station Paymaster Execution Policy",
        effect: "EFFECT_ALLOW",
        consensus: `approvers.any(user, user.id == '${members.paymaster.userId}')`,
        condition: [
          "activity.resource == 'PRIVATE_KEY'",
          "activity.action == 'SIGN'",
          `eth.tx.to == '${GAS_STATION.toLowerCase()}'`,
          `(eth.tx.contract_call_args['_to'] == '${USDC.toLowerCase()}')`,
          `(eth.tx.contract_call_args['_target'] == '${ALICE}')`,
          "eth.tx.contract_call_args['_ethAmount'] <= 100000000000000000",
          `eth.tx.gasPrice <= ${parseGwei("50")}`,
          "eth.tx.gas <= 500000",
        ].join(" && "),
        notes: "",
      },
    });
    expect(rootUserId).not.toBe(members.paymaster.userId);

    const submit = (args: { target?: Hex; to?: Hex; ethAmount?: bigint; maxFeePerGas?: bigint }) => {
      const data = encodeFunctionData({
        abi: GAS_STATION_ABI,
        functionName: "execute",
        args: [args.target ?? ALICE, args.to ?? (USDC as Hex), args.ethAmount ?? 10n ** 16n, "0xa9059cbb"],
      });
      const unsignedTransaction = serializeTransaction({
        type: "eip1559",
        chainId: 8453,
        nonce: 0,
        to: GAS_STATION,
        data,
        gas: 200_000n,
        maxFeePerGas: args.maxFeePerGas ?? parseGwei("10"),
        maxPriorityFeePerGas: parseGwei("1"),
      }).slice(2);
      return paymaster.signTransaction({
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
        organizationId,
        timestampMs: String(Date.now()),
        parameters: { signWith, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction },
      });
    };

    const allowed = await submit({});
    expect(allowed.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const signed = allowed.activity.result.signTransactionResult!.signedTransaction;
    expect(await recoverTransactionAddress({ serializedTransaction: `0x${signed}` as never })).toBe(signWith);

    for (const denied of [
      { target: "0x000000000000000000000000000000000000b0b0" as Hex },
      { to: "0x6B175474E89094C44Da98b954EedeAC495271d0F" as Hex },
      { ethAmount: 10n ** 18n },
      { maxFeePerGas: parseGwei("60") },
    ]) {
      const error = await refusal(submit(denied));
      expect(
        error.code,
        JSON.stringify(denied, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toBe(7);
    }
  });
});
