/**
 * Revert data as a `v1RevertChainEntry`: Solidity's `Error(string)` and `Panic(uint256)`, else the custom
 * error's selector and raw data (custodian does not know the contract's ABI here). The data comes from a node,
 * so what is kept of it is bounded: a revert message is quoted ({@link excerpt}), and raw data past
 * {@link MAX_REVERT_DATA_BYTES} is quoted too.
 *
 * @module
 */
import { excerpt } from "./excerpt.js";

const ERROR_STRING = "08c379a0";
const PANIC = "4e487b71";

/** Raw revert data kept whole: a custom error with some thirty arguments. */
const MAX_REVERT_DATA_BYTES = 1024;

/** `v1RevertChainEntry` for revert `data` (hex) raised by `address`. */
export function revertEntry(address: string, data: string | undefined): Record<string, unknown> {
  const hex = (data ?? "").replace(/^0x/, "").toLowerCase();
  const selector = hex.slice(0, 8);
  if (selector === ERROR_STRING && hex.length >= 8 + 128) {
    const length = Number.parseInt(hex.slice(8 + 64, 8 + 128), 16);
    const bytes = Buffer.from(hex.slice(8 + 128, 8 + 128 + length * 2), "hex");
    const message = excerpt(new TextDecoder().decode(bytes));
    return {
      address,
      errorType: "native",
      displayMessage: `execution reverted: ${message}`,
      native: { nativeType: "error_string", message },
    };
  }
  if (selector === PANIC && hex.length >= 8 + 64) {
    const code = BigInt(`0x${hex.slice(8, 8 + 64)}`).toString();
    return {
      address,
      errorType: "native",
      displayMessage: `execution reverted: panic ${code}`,
      native: { nativeType: "panic", panicCode: code },
    };
  }
  if (hex.length === 0) {
    return {
      address,
      errorType: "native",
      displayMessage: "execution reverted",
      native: { nativeType: "execution_reverted" },
    };
  }
  return {
    address,
    errorType: "unknown",
    displayMessage: `execution reverted with custom error 0x${selector}`,
    unknown: { selector: `0x${selector}`, data: excerpt(`0x${hex}`, 2 + 2 * MAX_REVERT_DATA_BYTES) },
  };
}

/** The revert data in a node's JSON-RPC error `data` (a hex string, or `{ data }` on some nodes). */
export function revertDataOf(errorData: unknown): string | undefined {
  if (typeof errorData === "string" && /^0x[0-9a-fA-F]*$/.test(errorData)) return errorData;
  if (errorData !== null && typeof errorData === "object" && "data" in errorData) {
    return revertDataOf((errorData as { data: unknown }).data);
  }
  return undefined;
}
