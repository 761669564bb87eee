/**
 * What a raw-payload signing activity shows policies about its payload (docs/spec/policy-language.md §2):
 * `eth.eip_712` for `PAYLOAD_ENCODING_EIP712` (`primary_type`, `domain`, `message`) and
 * `eth.eip_7702_authorization` for `PAYLOAD_ENCODING_EIP7702_AUTHORIZATION` (`address`, `chain_id`, `nonce`).
 *
 * Values are the signed ones: only members the document's types declare are shown (the signer refuses any
 * other), addresses and hex bytes in lowercase (docs/spec/policy-language.md, decision 6, and Turnkey's gas-station
 * policy builder lowercases the addresses it writes), and other message values keep their JSON type (decision 8: the
 * decimal string viem sends for a uint256 stays a string, as the builder's `message['value'] == '0'` expects).
 * Absent domain members read as `''` or `0`, as the Permit2 case of `test/vectors/policy/policy-cases.sample.json`
 * shows `version: ''`.
 *
 * A payload that cannot be parsed shows nothing: the handler then refuses it with `INVALID_ARGUMENT`.
 * `sign_raw_payloads` shows the keyword only for a batch of one, since one keyword cannot stand for several
 * documents and showing one of them would let the others pass unseen.
 *
 * @module
 */

import type { PolicyTargetData } from "../contract/operation.js";
import {
  type PayloadEncoding,
  parseAuthorization,
  parseTypedData,
  type TypedDataDocument,
} from "../crypto/sign/index.js";
import type { PolicyData } from "../policy/types.js";

const ARRAY_SUFFIX = /\[[0-9]*\]$/;
const HEX_TYPE = /^(?:address|bytes[0-9]*)$/;
const UNSIGNED = /^(?:0|[1-9][0-9]*|0x[0-9a-fA-F]+)$/;

/** The `eth` keyword of a raw-payload signing activity, or nothing when its payloads show none. */
export function rawPayloadPolicyData(encoding: PayloadEncoding, payloads: readonly string[]): PolicyTargetData {
  const [payload] = payloads;
  if (payload === undefined || payloads.length !== 1) return {};
  try {
    if (encoding === "PAYLOAD_ENCODING_EIP712") {
      return { eth: { eip_712: typedDataPolicyData(parseTypedData(payload, "payload")) } };
    }
    if (encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION") {
      const { address, chainId, nonce } = parseAuthorization(payload, "payload");
      return { eth: { eip_7702_authorization: { address: address.toLowerCase(), chain_id: chainId, nonce } } };
    }
  } catch {
    // Malformed: the handler reports it, naming the field.
  }
  return {};
}

/** `eth.eip_712`: the primary type, the domain's four named members and the message as its types read it. */
function typedDataPolicyData(doc: TypedDataDocument): PolicyData {
  const { domain } = doc;
  return {
    primary_type: doc.primaryType,
    domain: {
      name: typeof domain.name === "string" ? domain.name : "",
      version: typeof domain.version === "string" ? domain.version : "",
      chain_id: unsignedOrZero(domain.chainId),
      verifying_contract: typeof domain.verifyingContract === "string" ? domain.verifyingContract.toLowerCase() : "",
    },
    message:
      doc.primaryType === "EIP712Domain"
        ? {}
        : structValue(doc.types, doc.primaryType, doc.message, new Declared(doc.types)),
  };
}

/** A JSON number or a decimal or hex string as a BigInt; anything else (or absence) as 0. */
function unsignedOrZero(value: unknown): bigint {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && UNSIGNED.test(value)) return BigInt(value);
  return 0n;
}

/**
 * The declared members of a struct value, each read by its type. The walk goes over the members the value
 * carries, not the ones its type declares: `{}` of a type declaring a thousand members costs one step, so the
 * work stays proportional to the payload.
 */
function structValue(types: Record<string, unknown>, type: string, value: unknown, declared: Declared): PolicyData {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const members = declared.of(type);
  const out: Record<string, PolicyData> = {};
  for (const [name, given] of Object.entries(value)) {
    const memberType = members.get(name);
    if (memberType !== undefined) out[name] = fieldValue(types, memberType, given, declared);
  }
  return out;
}

/** Each struct type's declared members, name to type, read from `types` once per document. */
class Declared {
  private readonly known = new Map<string, ReadonlyMap<string, string>>();

  constructor(private readonly types: Record<string, unknown>) {}

  of(type: string): ReadonlyMap<string, string> {
    let members = this.known.get(type);
    if (members === undefined) {
      const list = Object.hasOwn(this.types, type) ? this.types[type] : undefined;
      const named = new Map<string, string>();
      for (const member of Array.isArray(list) ? (list as { name?: unknown; type?: unknown }[]) : []) {
        if (typeof member?.name === "string" && typeof member.type === "string" && !named.has(member.name)) {
          named.set(member.name, member.type);
        }
      }
      members = named;
      this.known.set(type, members);
    }
    return members;
  }
}

function fieldValue(types: Record<string, unknown>, type: string, value: unknown, declared: Declared): PolicyData {
  if (ARRAY_SUFFIX.test(type)) {
    const item = type.replace(ARRAY_SUFFIX, "");
    return Array.isArray(value) ? value.map((element) => fieldValue(types, item, element, declared)) : [];
  }
  if (Object.hasOwn(types, type)) return structValue(types, type, value, declared);
  if (HEX_TYPE.test(type) && typeof value === "string") return value.toLowerCase();
  // JSON scalars as given: the signer refuses any that do not fit their type.
  return typeof value === "object" ? null : (value as PolicyData);
}
