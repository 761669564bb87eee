/**
 * Solana instructions decoded with a stored Anchor IDL (`SMART_CONTRACT_INTERFACE_TYPE_SOLANA`), for
 * `solana.tx.instructions[i].parsed_instruction_data{instruction_name, discriminator, named_accounts,
 * program_call_args}`. Turnkey accepts IDLs "formatted according to Anchor's IDL language standardization"
 * (docs: concepts/policies/smart-contract-interfaces); both Anchor layouts are read:
 *
 * - 0.30 and later: each instruction carries its `discriminator` bytes; types are `pubkey`, `{ defined: { name } }`.
 * - earlier: the discriminator is the first 8 bytes of `sha256("global:<snake_case name>")`; types are
 *   `publicKey`, `{ defined: "Name" }`.
 *
 * Arguments are borsh, decoded with `@solana/codecs`: integers become BigInt, `pubkey` a base58 address, `bytes`
 * hex, `string` text, `option` the value or null, `vec`/`array` lists, a defined struct a map of its fields (a
 * tuple struct a list), an enum the variant name (or `{ name: fields }` when the variant has fields). An
 * instruction whose discriminator no IDL instruction has, whose data does not decode exactly, or whose IDL uses
 * something this reader does not know (generics, custom layouts) is shown undecoded, as without an IDL: a stored
 * interface never blocks signing.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import {
  addDecoderSizePrefix,
  type Decoder,
  fixDecoderSize,
  getArrayDecoder,
  getBooleanDecoder,
  getBytesDecoder,
  getF32Decoder,
  getF64Decoder,
  getI8Decoder,
  getI16Decoder,
  getI32Decoder,
  getI64Decoder,
  getI128Decoder,
  getNullableDecoder,
  getStructDecoder,
  getTupleDecoder,
  getU8Decoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
  getU128Decoder,
  getUtf8Decoder,
  transformDecoder,
} from "@solana/codecs";
import { bytesToHex, utf8ToBytes } from "../bytes.js";
import type { ResolvedInstruction } from "./solana-instruction.js";
import type { PlainData } from "./types.js";

/** The stored interfaces by program address (parsed JSON, shape unchecked). */
export type ProgramInterfaces = ReadonlyMap<string, unknown>;

type Json = unknown;
type AnyDecoder = Decoder<PlainData>;

const DISCRIMINATOR_BYTES = 8;
// Bounds on what an IDL can make the decoder build and do: an IDL is user-supplied, and a cyclic, very deep or
// widely shared type would otherwise recurse without end or build exponentially many decoders, and a list of
// zero-byte elements would loop for as many items as its 32-bit length prefix claims.
const MAX_TYPE_DEPTH = 32;
const MAX_DECODER_NODES = 10_000;

/** Why an IDL cannot be used; caught by {@link parseWithIdl}, which then shows the instruction undecoded. */
class UnsupportedIdl extends Error {}

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const asBigInt = <T extends number | bigint>(decoder: Decoder<T>): AnyDecoder =>
  transformDecoder(decoder, (value) => BigInt(value));

const pubkeyDecoder = (): AnyDecoder =>
  transformDecoder(fixDecoderSize(getBytesDecoder(), 32), (bytes) => base58.encode(Uint8Array.from(bytes)));

const PRIMITIVES: Readonly<Record<string, () => AnyDecoder>> = {
  bool: () => getBooleanDecoder(),
  u8: () => asBigInt(getU8Decoder()),
  i8: () => asBigInt(getI8Decoder()),
  u16: () => asBigInt(getU16Decoder()),
  i16: () => asBigInt(getI16Decoder()),
  u32: () => asBigInt(getU32Decoder()),
  i32: () => asBigInt(getI32Decoder()),
  u64: () => getU64Decoder(),
  i64: () => getI64Decoder(),
  u128: () => getU128Decoder(),
  i128: () => getI128Decoder(),
  f32: () => getF32Decoder(),
  f64: () => getF64Decoder(),
  string: () => addDecoderSizePrefix(getUtf8Decoder(), getU32Decoder()),
  bytes: () =>
    transformDecoder(addDecoderSizePrefix(getBytesDecoder(), getU32Decoder()), (bytes) =>
      bytesToHex(Uint8Array.from(bytes)),
    ),
  pubkey: pubkeyDecoder,
  // Anchor before 0.30 spelled it publicKey.
  publicKey: pubkeyDecoder,
};

/** The IDL's named types, and how many decoders this instruction's arguments have built so far. */
interface TypeScope {
  readonly types: ReadonlyMap<string, Json>;
  nodes: number;
}

/** The decoder of a list's elements, which must take at least one byte each. */
function elementDecoder(type: Json, scope: TypeScope, depth: number): AnyDecoder {
  const element = typeDecoder(type, scope, depth);
  if ("fixedSize" in element && element.fixedSize === 0) throw new UnsupportedIdl("list of zero-size elements");
  return element;
}

/** The borsh decoder of an IDL type. */
function typeDecoder(type: Json, scope: TypeScope, depth: number): AnyDecoder {
  if (depth > MAX_TYPE_DEPTH) throw new UnsupportedIdl("type nesting too deep");
  scope.nodes += 1;
  if (scope.nodes > MAX_DECODER_NODES) throw new UnsupportedIdl("too many types");
  if (typeof type === "string") {
    const primitive = PRIMITIVES[type];
    if (!primitive) throw new UnsupportedIdl(`unknown type ${type}`);
    return primitive();
  }
  if (!isObject(type)) throw new UnsupportedIdl("malformed type");
  if ("vec" in type) {
    const element = elementDecoder(type.vec, scope, depth + 1);
    return getArrayDecoder(element, { size: getU32Decoder(), requireSizePrefix: true }) as AnyDecoder;
  }
  if ("option" in type) return getNullableDecoder(typeDecoder(type.option, scope, depth + 1)) as AnyDecoder;
  if ("array" in type && Array.isArray(type.array) && Number.isSafeInteger(type.array[1]) && type.array[1] >= 0) {
    const element = elementDecoder(type.array[0], scope, depth + 1);
    return getArrayDecoder(element, { size: type.array[1] as number }) as AnyDecoder;
  }
  if ("defined" in type) {
    const name = isObject(type.defined) ? type.defined.name : type.defined;
    if (isObject(type.defined) && Array.isArray(type.defined.generics) && type.defined.generics.length > 0) {
      throw new UnsupportedIdl("generic types");
    }
    const definition = typeof name === "string" ? scope.types.get(name) : undefined;
    if (!isObject(definition)) throw new UnsupportedIdl(`undefined type ${String(name)}`);
    return definedDecoder(definition, scope, depth + 1);
  }
  throw new UnsupportedIdl("unknown type form");
}

/** A struct's fields: named (a map) or a tuple (a list). */
function fieldsDecoder(fields: Json, scope: TypeScope, depth: number): AnyDecoder {
  if (!Array.isArray(fields) || fields.length === 0) return transformDecoder(getTupleDecoder([]), () => []);
  if (fields.every((field) => isObject(field) && typeof field.name === "string")) {
    const named = (fields as Record<string, Json>[]).map(
      (field) => [field.name as string, typeDecoder(field.type, scope, depth)] as [string, AnyDecoder],
    );
    return getStructDecoder(named) as AnyDecoder;
  }
  return getTupleDecoder(fields.map((field) => typeDecoder(field, scope, depth))) as AnyDecoder;
}

function definedDecoder(definition: Record<string, Json>, scope: TypeScope, depth: number): AnyDecoder {
  const body = definition.type;
  if (!isObject(body) || (definition.serialization !== undefined && definition.serialization !== "borsh")) {
    throw new UnsupportedIdl("only borsh structs and enums");
  }
  if (body.kind === "struct") return fieldsDecoder(body.fields, scope, depth);
  if (body.kind === "enum" && Array.isArray(body.variants)) {
    const variants = body.variants.map((variant) => {
      if (!isObject(variant) || typeof variant.name !== "string") throw new UnsupportedIdl("malformed enum");
      return {
        name: variant.name,
        fields: variant.fields === undefined ? undefined : fieldsDecoder(variant.fields, scope, depth),
      };
    });
    const tag = getU8Decoder();
    return {
      read(bytes, offset) {
        const [index, next] = tag.read(bytes, offset);
        const variant = variants[index];
        if (!variant) throw new UnsupportedIdl(`enum variant ${index} out of range`);
        if (!variant.fields) return [variant.name, next];
        const [value, end] = variant.fields.read(bytes, next);
        return [{ [variant.name]: value }, end];
      },
    } as AnyDecoder;
  }
  throw new UnsupportedIdl("unknown defined type kind");
}

/** `transferChecked` → `transfer_checked`, as Anchor before 0.30 derived the discriminator's preimage. */
function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

function discriminatorOf(instruction: Record<string, Json>): Uint8Array {
  if (Array.isArray(instruction.discriminator)) {
    if (
      instruction.discriminator.length > MAX_DISCRIMINATOR_BYTES ||
      !instruction.discriminator.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)
    ) {
      throw new UnsupportedIdl("malformed discriminator");
    }
    return Uint8Array.from(instruction.discriminator as number[]);
  }
  return sha256(utf8ToBytes(`global:${snakeCase(String(instruction.name))}`)).subarray(0, DISCRIMINATOR_BYTES);
}

/** The account names of an IDL instruction in order, nested account groups flattened. */
function accountNames(accounts: Json): string[] {
  if (!Array.isArray(accounts)) return [];
  return accounts.flatMap((account) => {
    if (!isObject(account)) return [];
    if (Array.isArray(account.accounts)) return accountNames(account.accounts);
    return typeof account.name === "string" ? [account.name] : [];
  });
}

/** An IDL instruction as the index keeps it: its discriminator, and its argument decoder once built. */
interface Candidate {
  readonly instruction: Record<string, Json>;
  readonly discriminator: Uint8Array;
  /** Built on the first instruction that matches; an UnsupportedIdl when the IDL's types cannot be read. */
  args?: AnyDecoder | UnsupportedIdl;
  /** The instruction's account names, read on the first instruction that matches. */
  accounts?: readonly string[];
}

/**
 * An IDL made ready for many instructions: each instruction's discriminator is computed once, and candidates
 * are found by their discriminator's bytes rather than by trying each in turn. A transaction's thousands of
 * instructions against an IDL of thousands once cost a discriminator (a SHA-256) per pair, seconds in all.
 */
interface IdlIndex {
  readonly types: ReadonlyMap<string, Json>;
  readonly candidates: readonly Candidate[];
  /** By discriminator length, then its hex: the position in `candidates` of the first with those bytes. */
  readonly byPrefix: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /**
   * The position of the first IDL instruction whose discriminator is malformed: an instruction matching only
   * later is shown undecoded, as when the IDL was read in order and that instruction stopped the reading.
   */
  readonly brokenAt: number;
}

// Anchor discriminators are 8 bytes, Shank and Codama ones 1 to 4; a longer one is taken for malformed, which
// keeps the lookups per instruction few and short.
const MAX_DISCRIMINATOR_BYTES = 32;

/** IDLs indexed, by the parsed document (interfaces are parsed per request, so entries go with it). */
const indexes = new WeakMap<object, IdlIndex | null>();

function indexOf(idl: Record<string, Json>): IdlIndex | undefined {
  const known = indexes.get(idl);
  if (known !== undefined) return known ?? undefined;
  let index: IdlIndex | null = null;
  if (Array.isArray(idl.instructions)) {
    const types = new Map<string, Json>(
      (Array.isArray(idl.types) ? idl.types : []).flatMap((type) =>
        isObject(type) && typeof type.name === "string" ? [[type.name, type] as [string, Json]] : [],
      ),
    );
    const candidates: Candidate[] = [];
    const byPrefix = new Map<number, Map<string, number>>();
    let brokenAt = Number.POSITIVE_INFINITY;
    for (const instruction of idl.instructions) {
      if (!isObject(instruction) || typeof instruction.name !== "string") continue;
      let discriminator: Uint8Array;
      try {
        discriminator = discriminatorOf(instruction);
      } catch {
        brokenAt = candidates.length;
        break;
      }
      if (discriminator.length === 0) continue;
      const position = candidates.length;
      candidates.push({ instruction, discriminator });
      let sameLength = byPrefix.get(discriminator.length);
      if (!sameLength) {
        sameLength = new Map();
        byPrefix.set(discriminator.length, sameLength);
      }
      const key = bytesToHex(discriminator);
      if (!sameLength.has(key)) sameLength.set(key, position);
    }
    index = { types, candidates, byPrefix, brokenAt };
  }
  indexes.set(idl, index);
  return index ?? undefined;
}

/** The first IDL instruction (in the IDL's order) whose discriminator starts `data`. */
function candidateFor(index: IdlIndex, data: Uint8Array): Candidate | undefined {
  let first = Number.POSITIVE_INFINITY;
  for (const [length, byHex] of index.byPrefix) {
    if (data.length < length) continue;
    const position = byHex.get(bytesToHex(data.subarray(0, length)));
    if (position !== undefined && position < first) first = position;
  }
  return first < index.brokenAt ? index.candidates[first] : undefined;
}

/** Decodes `instruction` with the IDL stored for its program, or undefined when it cannot be (see the module doc). */
export function parseWithIdl(
  instruction: ResolvedInstruction,
  interfaces: ProgramInterfaces,
): { [key: string]: PlainData } | undefined {
  const idl = interfaces.get(instruction.programKey);
  if (!isObject(idl)) return undefined;
  const index = indexOf(idl);
  const candidate = index && candidateFor(index, instruction.data);
  if (!index || !candidate) return undefined;
  try {
    if (candidate.args === undefined) {
      try {
        candidate.args = fieldsDecoder(candidate.instruction.args ?? [], { types: index.types, nodes: 0 }, 0);
      } catch (error) {
        candidate.args = error instanceof UnsupportedIdl ? error : new UnsupportedIdl(String(error));
      }
    }
    if (candidate.args instanceof UnsupportedIdl) return undefined;
    const { discriminator } = candidate;
    const [values, end] = candidate.args.read(instruction.data, discriminator.length);
    if (end !== instruction.data.length) return undefined;
    candidate.accounts ??= accountNames(candidate.instruction.accounts);
    const names = candidate.accounts;
    const namedAccounts: Record<string, string> = {};
    names.forEach((name, position) => {
      const account = instruction.accounts[position];
      if (account) namedAccounts[name] = account.account_key;
    });
    return {
      instruction_name: candidate.instruction.name as string,
      discriminator: bytesToHex(discriminator),
      named_accounts: namedAccounts,
      program_call_args: Array.isArray(values) ? {} : (values as { [key: string]: PlainData }),
    };
  } catch {
    // Data the IDL does not describe: the instruction is shown undecoded.
    return undefined;
  }
}
