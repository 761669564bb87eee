/**
 * Amounts in whole units, as the hosted answers' `display.crypto` shows them (for reading, never for arithmetic).
 *
 * @module
 */

/** `amount` in whole units of an asset with `decimals`, without trailing zeros (`1.5`, `0.000001`, `12`). */
export function formatUnits(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
