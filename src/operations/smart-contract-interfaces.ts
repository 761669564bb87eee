/**
 * Smart contract interfaces: `create_smart_contract_interface`, `delete_smart_contract_interface` and the
 * queries `get_smart_contract_interface` and `list_smart_contract_interfaces`. An interface is an Ethereum ABI
 * or a Solana IDL stored for one contract or program address of the organization; `sign_transaction` decodes
 * the calls of transactions to that address with it, for policies (`eth.tx.contract_call_args`, ...).
 *
 * One interface per address and type: a second one for the same contract is ALREADY_EXISTS (delete the first
 * to replace it), so a policy never depends on which of two interfaces was chosen.
 *
 * @module
 */
import { base58 } from "@scure/base";
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, name } from "../contract/schema.js";
import { assertEthereumAbi } from "../crypto/tx/ethereum-abi.js";
import { SMART_CONTRACT_INTERFACE_TYPES, type SmartContractInterfaceType } from "../crypto/tx/index.js";
import { INDEX } from "../model/data.js";
import type { SmartContractInterfaceRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";
import type { Timestamp } from "../model/wire-types.js";

/** Largest interface document, in characters: the swagger's "Limited to 400kb". */
export const MAX_SMART_CONTRACT_INTERFACE_LENGTH = 400 * 1024;

const FIELDS = {
  address: "parameters.smartContractAddress",
  document: "parameters.smartContractInterface",
} as const;

/** `externaldatav1SmartContractInterface`. */
export interface SmartContractInterfaceData {
  organizationId: string;
  smartContractInterfaceId: string;
  smartContractAddress: string;
  smartContractInterface: string;
  type: string;
  label: string;
  notes: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

function render(record: SmartContractInterfaceRecord): SmartContractInterfaceData {
  return {
    organizationId: record.organizationId,
    smartContractInterfaceId: record.id,
    smartContractAddress: record.smartContractAddress,
    smartContractInterface: record.smartContractInterface,
    type: record.type,
    label: record.label,
    notes: record.notes,
    createdAt: timestamp(record.createdAtMs),
    updatedAt: timestamp(record.updatedAtMs),
  };
}

/** Checks the address for its chain: 20 bytes of hex for Ethereum, a 32-byte base58 key for Solana. */
function assertContractAddress(type: SmartContractInterfaceType, address: string): void {
  if (type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw invalidArgument(`${FIELDS.address} must be a 0x-prefixed 20-byte hex address`, FIELDS.address);
    }
    return;
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = base58.decode(address);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 32) {
    throw invalidArgument(`${FIELDS.address} must be a base58 Solana program id (32 bytes)`, FIELDS.address);
  }
}

/** Parses and checks the document: a JSON ABI (an array) for Ethereum, a JSON IDL (an object) for Solana. */
function assertInterfaceDocument(type: SmartContractInterfaceType, text: string): void {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw invalidArgument(`${FIELDS.document} is not JSON`, FIELDS.document);
  }
  if (type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
    assertEthereumAbi(document, FIELDS.document);
  } else if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw invalidArgument(`${FIELDS.document} must be a JSON IDL object`, FIELDS.document);
  }
}

export const createSmartContractInterface = defineActivity({
  method: "createSmartContractInterface",
  path: "create_smart_contract_interface",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE",
      intent: "createSmartContractInterfaceIntent",
      result: "createSmartContractInterfaceResult",
      parameters: v.object({
        smartContractAddress: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
        smartContractInterface: v.pipe(
          v.string(),
          v.minLength(1, "must not be empty"),
          v.maxLength(
            MAX_SMART_CONTRACT_INTERFACE_LENGTH,
            `must be at most ${MAX_SMART_CONTRACT_INTERFACE_LENGTH} characters`,
          ),
        ),
        type: v.picklist(SMART_CONTRACT_INTERFACE_TYPES),
        label: name,
        notes: v.optional(v.pipe(v.string(), v.maxLength(4096, "must be at most 4096 characters")), ""),
      }),
    },
  ],
  policy: { resource: "SMART_CONTRACT_INTERFACE", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    assertContractAddress(params.type, params.smartContractAddress);
    assertInterfaceDocument(params.type, params.smartContractInterface);
    const key = INDEX.smartContractInterfaceByAddress(organization.id, params.type, params.smartContractAddress);
    if ((await data.lookup("smartContractInterfaceByAddress", key)) !== undefined) {
      throw new CustodyError(
        "ALREADY_EXISTS",
        `a smart contract interface of this type already exists for ${params.smartContractAddress}; delete it to replace it`,
        { field: FIELDS.address, reason: "SMART_CONTRACT_INTERFACE_EXISTS" },
      );
    }
    const record: SmartContractInterfaceRecord = {
      id: context.newId(),
      organizationId: organization.id,
      smartContractAddress: params.smartContractAddress,
      smartContractInterface: params.smartContractInterface,
      type: params.type,
      label: params.label,
      notes: params.notes,
      createdAtMs: context.now,
      updatedAtMs: context.now,
    };
    await data.put("smartContractInterfaces", record);
    return { smartContractInterfaceId: record.id };
  },
});

export const deleteSmartContractInterface = defineActivity({
  method: "deleteSmartContractInterface",
  path: "delete_smart_contract_interface",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
      intent: "deleteSmartContractInterfaceIntent",
      result: "deleteSmartContractInterfaceResult",
      parameters: v.object({ smartContractInterfaceId: id }),
    },
  ],
  policy: { resource: "SMART_CONTRACT_INTERFACE", action: "DELETE" },
  async handler(context, params) {
    const record = await context.data.requireInOrganization(
      "smartContractInterfaces",
      params.smartContractInterfaceId,
      context.organization.id,
      "smart contract interface",
      "parameters.smartContractInterfaceId",
    );
    await context.data.delete("smartContractInterfaces", record.id);
    return { smartContractInterfaceId: record.id };
  },
});

export const getSmartContractInterface = defineQuery({
  method: "getSmartContractInterface",
  path: "get_smart_contract_interface",
  request: v.object({ organizationId: id, smartContractInterfaceId: id }),
  async handler(context, request) {
    const record = await context.data.requireInOrganization(
      "smartContractInterfaces",
      request.smartContractInterfaceId,
      context.organization.id,
      "smart contract interface",
      "smartContractInterfaceId",
    );
    return { smartContractInterface: render(record) };
  },
});

export const getSmartContractInterfaces = defineQuery({
  method: "getSmartContractInterfaces",
  path: "list_smart_contract_interfaces",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const records = await context.data.listAll("smartContractInterfaces", context.organization.id);
    return { smartContractInterfaces: records.map(render) };
  },
});
