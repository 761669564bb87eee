/**
 * Ethereum call data decoded with a stored ABI, for `eth.tx.function_name`, `function_signature` and
 * `contract_call_args` (docs/spec/policy-language.md §2). micro-eth-signer's ABI decoder does the decoding; this module
 * picks the function by its selector and presents the arguments as policies read them:
 *
 * - arguments by their ABI name (by position, `'0'`, `'1'`, ..., when the ABI leaves a name empty);
 * - tuples as lists by position (`call[0]`), as Turnkey documents (fp/examples/ethereum.mdx);
 * - integers as BigInt, addresses and bytes as lowercase `0x` hex, strings and booleans as they are.
 *
 * @module
 */
import { Decoder } from "micro-eth-signer/abi.js";
import { invalidArgument } from "../../common/errors.js";
import { bytesToHex } from "../bytes.js";
import type { PlainData } from "./types.js";

/** One parameter of an ABI function, as the JSON ABI spells it. */
interface AbiParameter {
  readonly name?: string;
  readonly type: string;
  readonly components?: readonly AbiParameter[];
}

/** A function item of a JSON ABI. */
interface AbiFunction {
  readonly type: "function";
  readonly name: string;
  readonly inputs?: readonly AbiParameter[];
}

/** The decoded call, as `eth.tx` shows it. */
export interface DecodedCall {
  readonly function_name: string;
  /** The 4-byte selector, `0x` and lowercase hex (e.g. `0xa9059cbb`). */
  readonly function_signature: string;
  readonly contract_call_args: { readonly [name: string]: PlainData };
}

// Any valid address keys micro-eth-signer's decoder; the ABI is bound to one contract here anyway.
const DECODER_ADDRESS = "0x0000000000000000000000000000000000000000";

function isAbiFunction(item: unknown): item is AbiFunction {
  if (typeof item !== "object" || item === null) return false;
  const candidate = item as Record<string, unknown>;
  return candidate.type === "function" && typeof candidate.name === "string";
}

/**
 * Checks that `abi` (parsed JSON) is a JSON ABI micro-eth-signer can decode with: an array of items whose
 * functions have well-formed parameter types. Throws `INVALID_ARGUMENT` naming `field` otherwise.
 */
export function assertEthereumAbi(abi: unknown, field: string): void {
  if (!Array.isArray(abi)) throw invalidArgument(`${field} must be a JSON ABI: an array of items`, field);
  try {
    new Decoder().add(DECODER_ADDRESS, abi);
  } catch (error) {
    throw invalidArgument(`${field} is not a usable Ethereum ABI: ${(error as Error).message}`, field);
  }
}

/**
 * Decodes `data` (call data, selector first) with the function of `abi` its selector names. Returns undefined
 * when the ABI has no such function or the arguments do not decode: the policy then sees the call undecoded.
 */
export function decodeCall(abi: unknown, data: Uint8Array): DecodedCall | undefined {
  if (!Array.isArray(abi) || data.length < 4) return undefined;
  for (const item of abi) {
    if (!isAbiFunction(item)) continue;
    try {
      const decoder = new Decoder();
      decoder.add(DECODER_ADDRESS, [item]);
      if (decoder.method(DECODER_ADDRESS, data) === undefined) continue;
      const info = decoder.decode(DECODER_ADDRESS, data, {});
      if (info === undefined || Array.isArray(info)) return undefined;
      return {
        function_name: item.name,
        function_signature: `0x${bytesToHex(data.subarray(0, 4))}`,
        contract_call_args: namedArguments(item.inputs ?? [], info.value),
      };
    } catch {
      // An item micro-eth-signer refuses, or call data that does not decode: no decoded call.
      return undefined;
    }
  }
  return undefined;
}

/** micro-eth-signer returns one argument bare, several as an object by name (all named) or an array. */
function namedArguments(inputs: readonly AbiParameter[], value: unknown): { [name: string]: PlainData } {
  const args: { [name: string]: PlainData } = {};
  inputs.forEach((input, index) => {
    const argument = inputs.length === 1 ? value : member(value, input, index);
    args[input.name || String(index)] = presentValue(input, argument);
  });
  return args;
}

/** A member of a decoded struct: by position in an array, by name in an object. */
function member(value: unknown, parameter: AbiParameter, index: number): unknown {
  if (Array.isArray(value)) return value[index];
  return (value as Record<string, unknown>)[parameter.name ?? ""];
}

/** A decoded value in the policy language's types, following its ABI type. */
function presentValue(parameter: AbiParameter, value: unknown): PlainData {
  const array = /^(.*)\[[0-9]*\]$/.exec(parameter.type);
  if (array) {
    const element = { ...parameter, type: array[1] as string };
    return (value as unknown[]).map((item) => presentValue(element, item));
  }
  if (parameter.type === "tuple") {
    const components = parameter.components ?? [];
    return components.map((component, index) => presentValue(component, member(value, component, index)));
  }
  if (value instanceof Uint8Array) return `0x${bytesToHex(value)}`;
  if (typeof value === "string") return parameter.type === "string" ? value : value.toLowerCase();
  return value as PlainData;
}
