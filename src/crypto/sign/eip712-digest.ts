/**
 * The EIP-712 digest `keccak256(0x1901 ‖ hashStruct(EIP712Domain, domain) ‖ hashStruct(primaryType, message))`
 * of a typed-data document, with every type and value checked on the way.
 *
 * A small encoder of our own, because micro-eth-signer refuses struct names that are not JavaScript
 * identifiers, while viem and ethers accept any name of letters, digits, `_`, `$` and `:` (Hyperliquid signs
 * `HyperliquidTransaction:ApproveAgent`). It is cross-checked against viem's `hashTypedData` and ethers'
 * `TypedDataEncoder` in the tests. The hashing and the ABI words are @noble/hashes and plain big-endian bytes.
 *
 * Rules, where the implementations differ, and whose rule is followed:
 * - struct names: `[A-Za-z0-9_$:]+`, not an atomic type's name (viem); member names: identifiers (micro-eth-signer).
 * - a type that refers to itself, directly or through others, is refused (ethers; viem and micro-eth-signer
 *   accept it, but no finite message of such a type without arrays exists and hashing one is ill-defined).
 * - a struct member whose value is absent hashes as 32 zero bytes (eth-sig-util's V4, micro-eth-signer);
 *   any other absent value is refused.
 * - integers are JSON numbers (safe integers) or decimal / `0x` hex strings, within their type's range.
 * - members a value carries that its type does not declare are not hashed (viem; ethers refuses them).
 * - without an `EIP712Domain` type, the domain type is the standard members the domain has (viem).
 *
 * @module
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { invalidArgument } from "../../common/errors.js";
import { concatBytes, hexToBytes, utf8ToBytes } from "../bytes.js";
import { isJsonObject } from "./json.js";
import { MAX_EIP712_HASH_BLOCKS } from "./limits.js";

/** An EIP-712 typed-data document whose outer shape has been checked; its types and values are checked when signed. */
export interface TypedDataDocument {
  readonly types: Record<string, unknown>;
  readonly primaryType: string;
  readonly domain: Record<string, unknown>;
  readonly message: Record<string, unknown>;
}

interface Member {
  readonly name: string;
  readonly type: string;
}

type Schema = ReadonlyMap<string, readonly Member[]>;

// Bounds on the work one document can ask for (micro-eth-signer's limits): hashing is linear in the
// message, but each type's encoding repeats its dependencies, so the schema itself is bounded.
const MAX_TYPES = 256;
const MAX_MEMBERS = 1024;
const MAX_ENCODED_TYPE_CHARS = 1_048_576;

const STRUCT_NAME = /^[A-Za-z0-9_$:]+$/;
const ATOMIC_NAME = /^(?:address|bool|string|(?:u?int|bytes)[0-9]*)$/;
const MEMBER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ARRAY = /^(.+)\[([0-9]*)\]$/;
const INTEGER_TYPE = /^(u?)int([0-9]*)$/;
const FIXED_BYTES_TYPE = /^bytes([0-9]+)$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const WORD = 32;
const DOMAIN = "EIP712Domain";
const STANDARD_DOMAIN: readonly Member[] = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
  { name: "salt", type: "bytes32" },
];

/** A document that EIP-712 cannot hash; turned into `INVALID_ARGUMENT` naming the payload field. */
class TypedDataError extends Error {
  /** The bound the document went past, when it went past one (the error's `details.limit`). */
  constructor(
    message: string,
    readonly limit?: number,
  ) {
    super(message);
  }
}

/**
 * The hashing work the EIP-712 documents of one request have done so far, in keccak-256 blocks: one budget is
 * shared by every payload of a `sign_raw_payloads` call, so a thousand documents cost what one may.
 */
export interface TypedDataBudget {
  blocks: number;
}

/** A fresh {@link TypedDataBudget}, for one request. */
export function typedDataBudget(): TypedDataBudget {
  return { blocks: 0 };
}

const KECCAK_RATE_BYTES = 136;

const MAX_REASON_CHARS = 200;

/**
 * The 32-byte EIP-712 digest of `doc`, or `INVALID_ARGUMENT` naming `field` with the reason. The hashing is
 * charged to `budget` (the request's, when it has several documents); past {@link MAX_EIP712_HASH_BLOCKS} the
 * document is refused, with `details.limit`, before it hashes more.
 */
export function typedDataDigest(
  doc: TypedDataDocument,
  field: string,
  budget: TypedDataBudget = typedDataBudget(),
): Uint8Array {
  try {
    const schema = schemaOf(doc);
    const hasher = new StructHasher(schema, budget);
    const parts = [Uint8Array.of(0x19, 0x01), hasher.hashStruct(DOMAIN, doc.domain, "domain")];
    if (doc.primaryType !== DOMAIN) parts.push(hasher.hashStruct(doc.primaryType, doc.message, "message"));
    return hasher.hash(concatBytes(...parts));
  } catch (cause) {
    if (!(cause instanceof TypedDataError)) throw cause;
    // Member paths come from the requester: the reason is cut short so no message grows with the payload.
    const reason =
      cause.message.length > MAX_REASON_CHARS ? `${cause.message.slice(0, MAX_REASON_CHARS)}…` : cause.message;
    throw invalidArgument(
      `${field} is not a valid EIP-712 document: ${reason}`,
      field,
      cause.limit === undefined ? {} : { limit: cause.limit },
    );
  }
}

/** The checked struct types of a document, with the domain type derived when it is not declared. */
function schemaOf(doc: TypedDataDocument): Schema {
  const entries = Object.entries(doc.types);
  if (entries.length > MAX_TYPES) throw new TypedDataError(`it declares more than ${MAX_TYPES} types`);
  const schema = new Map<string, readonly Member[]>();
  let memberCount = 0;
  for (const [name, members] of entries) {
    if (!STRUCT_NAME.test(name) || ATOMIC_NAME.test(name))
      throw new TypedDataError(`"${clip(name)}" is not a struct name`);
    if (!Array.isArray(members)) throw new TypedDataError(`the members of "${clip(name)}" are not a list`);
    memberCount += members.length;
    if (memberCount > MAX_MEMBERS) throw new TypedDataError(`its types have more than ${MAX_MEMBERS} members`);
    schema.set(
      name,
      members.map((member) => memberOf(name, member)),
    );
  }
  if (!schema.has(DOMAIN)) {
    schema.set(
      DOMAIN,
      STANDARD_DOMAIN.filter(({ name }) => Object.hasOwn(doc.domain, name) && doc.domain[name] != null),
    );
  }
  for (const [name, members] of schema) {
    const seen = new Set<string>();
    for (const member of members) {
      if (seen.has(member.name)) throw new TypedDataError(`"${clip(name)}" declares "${member.name}" twice`);
      seen.add(member.name);
      checkMemberType(schema, member.type);
    }
  }
  refuseCycles(schema);
  return schema;
}

function memberOf(struct: string, member: unknown): Member {
  if (!isJsonObject(member) || typeof member.name !== "string" || typeof member.type !== "string") {
    throw new TypedDataError(`a member of "${clip(struct)}" is not {name, type}`);
  }
  if (!MEMBER_NAME.test(member.name)) {
    throw new TypedDataError(`"${clip(struct)}" has a member name that is not an identifier`);
  }
  return { name: member.name, type: member.type };
}

/** Refuses a member type that is neither atomic, dynamic, a declared struct, nor an array of those. */
function checkMemberType(schema: Schema, type: string): void {
  const base = baseType(type);
  if (schema.has(base) || base === "address" || base === "bool" || base === "string" || base === "bytes") return;
  const integer = INTEGER_TYPE.exec(base);
  if (integer) {
    integerBits(integer[2] as string, base);
    return;
  }
  const size = FIXED_BYTES_TYPE.exec(base)?.[1];
  if (size !== undefined && !size.startsWith("0") && Number(size) <= WORD) return;
  throw new TypedDataError(`it uses the type "${clip(base)}", which its "types" do not define`);
}

function integerBits(digits: string, type: string): number {
  // `uint`/`int` alone mean 256 bits, as micro-eth-signer and the Solidity ABI read them.
  const bits = digits === "" ? 256 : Number(digits);
  if (digits.startsWith("0") || bits < 8 || bits > 256 || bits % 8 !== 0) {
    throw new TypedDataError(`"${clip(type)}" is not an integer type`);
  }
  return bits;
}

/** Refuses a struct type that reaches itself through its members (ethers' rule). */
function refuseCycles(schema: Schema): void {
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) {
      throw new TypedDataError(`the type "${clip(name)}" refers to itself (${[...path, name].map(clip).join(" → ")})`);
    }
    if (done.has(name)) return;
    for (const member of schema.get(name) ?? []) {
      const base = baseType(member.type);
      if (schema.has(base)) visit(base, [...path, name]);
    }
    done.add(name);
  };
  for (const name of schema.keys()) visit(name, []);
}

function baseType(type: string): string {
  return type.replace(/(?:\[[0-9]*\])+$/, "");
}

/** hashStruct over one schema, with each type's hash computed once. */
class StructHasher {
  private readonly typeHashes = new Map<string, Uint8Array>();
  private encodedTypeChars = 0;

  constructor(
    private readonly schema: Schema,
    private readonly budget: TypedDataBudget,
  ) {}

  /** keccak-256 of `bytes`, charged to the budget first. */
  hash(bytes: Uint8Array): Uint8Array {
    this.budget.blocks += Math.floor(bytes.length / KECCAK_RATE_BYTES) + 1;
    if (this.budget.blocks > MAX_EIP712_HASH_BLOCKS) {
      throw new TypedDataError(
        `hashing it (with the request's other documents) takes more than ${MAX_EIP712_HASH_BLOCKS} blocks of keccak-256`,
        MAX_EIP712_HASH_BLOCKS,
      );
    }
    return keccak_256(bytes);
  }

  hashStruct(type: string, value: unknown, at: string): Uint8Array {
    const members = this.schema.get(type) as readonly Member[];
    if (!isJsonObject(value)) throw new TypedDataError(`${at} must be an object of type "${clip(type)}"`);
    // Members the type does not declare are not hashed, as viem and the hosted service hash such a document
    // (Hyperliquid's ApproveAgent carries `signatureChainId` and `type`); policies see declared members only.
    const words = [this.typeHash(type)];
    for (const member of members) {
      const memberValue = value[member.name];
      const path = `${at}.${member.name}`;
      if (memberValue === undefined && this.schema.has(member.type)) words.push(new Uint8Array(WORD));
      else words.push(this.encodeValue(member.type, memberValue, path));
    }
    return this.hash(concatBytes(...words));
  }

  private encodeValue(type: string, value: unknown, at: string): Uint8Array {
    if (value === undefined || value === null) throw new TypedDataError(`${at} has no value`);
    const array = ARRAY.exec(type);
    if (array) {
      const [, item, length] = array as unknown as [string, string, string];
      if (!Array.isArray(value)) throw new TypedDataError(`${at} must be a list`);
      if (length !== "" && value.length !== Number(length)) {
        throw new TypedDataError(`${at} must have ${length} items, not ${value.length}`);
      }
      return this.hash(concatBytes(...value.map((element, i) => this.encodeValue(item, element, `${at}[${i}]`))));
    }
    if (this.schema.has(type)) return this.hashStruct(type, value, at);
    switch (type) {
      case "string":
        if (typeof value !== "string") throw new TypedDataError(`${at} must be a string`);
        return this.hash(utf8ToBytes(value));
      case "bytes":
        return this.hash(hexBytes(value, at));
      case "bool":
        if (typeof value !== "boolean") throw new TypedDataError(`${at} must be true or false`);
        return leftPadded(Uint8Array.of(value ? 1 : 0));
      case "address":
        if (typeof value !== "string" || !ADDRESS.test(value)) {
          throw new TypedDataError(`${at} must be a 0x-prefixed 20-byte address`);
        }
        return leftPadded(hexToBytes(value.slice(2)));
    }
    const integer = INTEGER_TYPE.exec(type);
    if (integer) return integerWord(value, integer[1] === "", integerBits(integer[2] as string, type), at);
    const size = Number(FIXED_BYTES_TYPE.exec(type)?.[1]);
    const bytes = hexBytes(value, at);
    if (bytes.length !== size) throw new TypedDataError(`${at} must be ${size} bytes, not ${bytes.length}`);
    const word = new Uint8Array(WORD);
    word.set(bytes);
    return word;
  }

  /** keccak256 of the type's encoding: itself, then the structs it uses, sorted by name (EIP-712 encodeType). */
  private typeHash(type: string): Uint8Array {
    const known = this.typeHashes.get(type);
    if (known) return known;
    const dependencies = new Set<string>();
    const collect = (name: string) => {
      for (const member of this.schema.get(name) ?? []) {
        const base = baseType(member.type);
        if (this.schema.has(base) && base !== type && !dependencies.has(base)) {
          dependencies.add(base);
          collect(base);
        }
      }
    };
    collect(type);
    const encoded = [type, ...[...dependencies].sort()]
      .map((name) => `${name}(${(this.schema.get(name) ?? []).map((m) => `${m.type} ${m.name}`).join(",")})`)
      .join("");
    this.encodedTypeChars += encoded.length;
    if (this.encodedTypeChars > MAX_ENCODED_TYPE_CHARS) {
      throw new TypedDataError(`its type encodings exceed ${MAX_ENCODED_TYPE_CHARS} characters`);
    }
    const hash = this.hash(utf8ToBytes(encoded));
    this.typeHashes.set(type, hash);
    return hash;
  }
}

/** A 0x-prefixed hex string's bytes. */
function hexBytes(value: unknown, at: string): Uint8Array {
  if (typeof value !== "string" || !HEX_BYTES.test(value))
    throw new TypedDataError(`${at} must be 0x-prefixed hex bytes`);
  return hexToBytes(value.slice(2));
}

/** An integer value as its 32-byte two's-complement word, refused outside its type's range. */
function integerWord(value: unknown, signed: boolean, bits: number, at: string): Uint8Array {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value < 2 ** 32) {
    // The common case (a count, a nonce, a chain id), written straight into the word's last four bytes;
    // every unsigned and signed type of at least 8 bits holds it unless it is past the type's range.
    if (bits <= 32 && value >= 2 ** (signed ? bits - 1 : bits)) {
      throw new TypedDataError(`${at} is out of the range of ${signed ? "" : "u"}int${bits}`);
    }
    const word = new Uint8Array(WORD);
    new DataView(word.buffer).setUint32(WORD - 4, value);
    return word;
  }
  let parsed: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === "string" && (DECIMAL.test(value) || HEX_QUANTITY.test(value))) parsed = BigInt(value);
  if (parsed === undefined) {
    throw new TypedDataError(`${at} must be an integer: a JSON number up to 2^53 - 1, or a decimal or 0x-hex string`);
  }
  const limit = 1n << BigInt(signed ? bits - 1 : bits);
  const min = signed ? -limit : 0n;
  if (parsed < min || parsed >= limit)
    throw new TypedDataError(`${at} is out of the range of ${signed ? "" : "u"}int${bits}`);
  const word = BigInt.asUintN(256, parsed);
  return hexToBytes(word.toString(16).padStart(WORD * 2, "0"));
}

function leftPadded(bytes: Uint8Array): Uint8Array {
  const word = new Uint8Array(WORD);
  word.set(bytes, WORD - bytes.length);
  return word;
}

/** A name as quoted in a message: names come from the requester, so long ones are cut. */
function clip(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}
