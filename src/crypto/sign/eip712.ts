/**
 * `PAYLOAD_ENCODING_EIP712`: the payload is an EIP-712 typed-data JSON document
 * (`{types, primaryType, domain, message}`, the `eth_signTypedData_v4` shape that @turnkey/viem sends via
 * viem's `serializeTypedData`). The digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))` is
 * computed by micro-eth-signer.
 *
 * micro-eth-signer computes that digest only inside `signTyped` (its encoder and `sigHash` are not exported),
 * so a typed-data payload travels to the signer as a parsed document and is hashed and signed in one call.
 *
 * Compatibility notes:
 * - micro-eth-signer refuses a message or domain with members its type does not declare, where viem ignores
 *   them. Refusing is deliberate: an undeclared member is not signed, so a policy reading it would read an
 *   unsigned value.
 * - When `types` has no `EIP712Domain`, the domain type is derived from the domain's members, as viem does.
 *
 * @module
 */
import { parseSignature, signTyped } from "micro-eth-signer";
import { invalidArgument } from "../../errors.js";
import { isJsonObject, parsePayloadJson } from "./json.js";
import type { RawPayloadSignature } from "./signature.js";

/** An EIP-712 typed-data document whose outer shape has been checked; its types and values are checked when signed. */
export interface TypedDataDocument {
  readonly types: Record<string, unknown>;
  readonly primaryType: string;
  readonly domain: Record<string, unknown>;
  readonly message: Record<string, unknown>;
}

const WHAT = "an EIP-712 typed-data document {types, primaryType, domain, message}";
const MAX_LIBRARY_MESSAGE = 200;
const ARRAY_SUFFIXES = /(?:\[[0-9]*\])+$/;

/** Parses an EIP-712 payload and checks its outer shape, or throws `INVALID_ARGUMENT` naming `field`. */
export function parseTypedData(text: string, field: string): TypedDataDocument {
  const doc = parsePayloadJson(text, field, WHAT);
  if (!isJsonObject(doc)) throw invalidArgument(`${field} must be ${WHAT}`, field);
  const { types, primaryType, domain } = doc;
  if (!isJsonObject(types)) throw invalidArgument(`${field} must have an object "types"`, field);
  if (typeof primaryType !== "string" || !Object.hasOwn(types, primaryType)) {
    throw invalidArgument(`${field} must have a "primaryType" that names one of its "types"`, field);
  }
  assertNoInheritedTypeNames(types, field);
  if (!isJsonObject(domain)) throw invalidArgument(`${field} must have an object "domain"`, field);
  // viem's serializeTypedData drops `message` when the primary type is the domain itself: the digest then
  // covers the domain separator alone, and micro-eth-signer wants an (unused) object there.
  const message = doc.message === undefined && primaryType === "EIP712Domain" ? {} : doc.message;
  if (!isJsonObject(message)) throw invalidArgument(`${field} must have an object "message"`, field);
  return { types, primaryType, domain, message };
}

/**
 * Refuses a field type naming an `Object.prototype` member (`toString`, `constructor`, ...) that `types` does not
 * define: the encoder looks struct types up with plain indexing, so such a name would resolve to a function
 * rather than to "no such type". Today that ends in an obscure library error; this makes the refusal explicit.
 */
function assertNoInheritedTypeNames(types: Record<string, unknown>, field: string): void {
  for (const members of Object.values(types)) {
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      const type: unknown = isJsonObject(member) ? member.type : undefined;
      if (typeof type !== "string") continue;
      const base = type.replace(ARRAY_SUFFIXES, "");
      if (base in Object.prototype && !Object.hasOwn(types, base)) {
        throw invalidArgument(`${field} uses the type "${base}", which its "types" do not define`, field);
      }
    }
  }
}

/**
 * Hashes `typedData` per EIP-712 and signs the digest with a secp256k1 key: deterministic (RFC 6979), low-S,
 * with the recovery id. A document micro-eth-signer cannot encode gives `INVALID_ARGUMENT` naming `field`.
 * The key must already be a valid secp256k1 scalar, so every failure here is the document's.
 */
export function signTypedData(
  typedData: TypedDataDocument,
  privateKey: Uint8Array,
  field: string,
): RawPayloadSignature {
  let signature: string;
  try {
    // The document is only shape-checked; micro-eth-signer validates types and values against each other.
    signature = signTyped(typedData as unknown as Parameters<typeof signTyped>[0], privateKey, false);
  } catch (cause) {
    throw invalidArgument(`${field} is not a valid EIP-712 document: ${libraryMessage(cause)}`, field);
  }
  const { r, s, yParity } = parseSignature(signature);
  return { r: scalarHex(r), s: scalarHex(s), v: yParity === 0 ? "00" : "01" };
}

function scalarHex(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}

/** The library's reason, cut short: it may quote parts of the (requester's own) document. */
function libraryMessage(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.length > MAX_LIBRARY_MESSAGE ? `${text.slice(0, MAX_LIBRARY_MESSAGE)}…` : text;
}
