/**
 * `PAYLOAD_ENCODING_EIP7702_AUTHORIZATION`: the payload is the JSON `{address, chainId, nonce}` that
 * @turnkey/viem's `signAuthorization` sends (`JSON.stringify({address, chainId, nonce})`, numbers as JSON
 * numbers). The digest is EIP-7702's `keccak256(0x05 ‖ rlp([chain_id, address, nonce]))`, computed by
 * micro-eth-signer's `authorization.getHash`.
 *
 * @module
 */
import { authorization } from "micro-eth-signer";
import { invalidArgument } from "../../common/errors.js";
import { isJsonObject, parsePayloadJson } from "./json.js";

const WHAT = "an EIP-7702 authorization {address, chainId, nonce}";
const MEMBERS = new Set(["address", "chainId", "nonce"]);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
// EIP-7702: chain_id is a uint256 (0 = valid on every chain), nonce a uint64.
const CHAIN_ID_BITS = 256n;
const NONCE_BITS = 64n;

/** A parsed EIP-7702 authorization: the three members that are signed. */
export interface Authorization {
  /** As given: 0x-prefixed, 20 bytes, any case (a mixed-case one is checked against EIP-55 when hashed). */
  readonly address: string;
  readonly chainId: bigint;
  readonly nonce: bigint;
}

/** Parses an EIP-7702 authorization payload, or throws `INVALID_ARGUMENT` naming `field`. */
export function parseAuthorization(text: string, field: string): Authorization {
  const doc = parsePayloadJson(text, field, WHAT);
  if (!isJsonObject(doc)) throw invalidArgument(`${field} must be ${WHAT}`, field);
  for (const key of Object.keys(doc)) {
    // Nothing but the three signed members: an extra one would be shown to policies without being signed.
    if (!MEMBERS.has(key)) throw invalidArgument(`${field} has an unexpected member; expected ${WHAT}`, field);
  }
  const { address } = doc;
  if (typeof address !== "string" || !ADDRESS.test(address)) {
    throw invalidArgument(`${field} "address" must be a 0x-prefixed 20-byte hex address`, field);
  }
  const chainId = unsignedInteger(doc.chainId, "chainId", CHAIN_ID_BITS, field);
  const nonce = unsignedInteger(doc.nonce, "nonce", NONCE_BITS, field);
  return { address, chainId, nonce };
}

/** The 32-byte EIP-7702 authorization digest of the payload, or `INVALID_ARGUMENT` naming `field`. */
export function authorizationDigest(text: string, field: string): Uint8Array {
  const { address, chainId, nonce } = parseAuthorization(text, field);
  try {
    return authorization.getHash({ address, chainId, nonce });
  } catch (cause) {
    // The only input left for the library to refuse is a mixed-case address with a wrong EIP-55 checksum.
    throw invalidArgument(`${field} "address" is not a valid address (${(cause as Error).message})`, field);
  }
}

/**
 * A JSON number (a safe integer) or a string (decimal, or 0x-prefixed hex for values past 2^53) as a bigint
 * below 2^bits.
 */
function unsignedInteger(value: unknown, member: string, bits: bigint, field: string): bigint {
  let parsed: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === "string" && (DECIMAL.test(value) || HEX_QUANTITY.test(value))) parsed = BigInt(value);
  if (parsed === undefined || parsed >> bits !== 0n) {
    throw invalidArgument(
      `${field} "${member}" must be an unsigned ${bits}-bit integer: a JSON number up to 2^53 - 1, or a decimal or 0x-hex string`,
      field,
    );
  }
  return parsed;
}
