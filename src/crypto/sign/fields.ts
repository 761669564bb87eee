/**
 * Dotted paths of the request fields raw-payload signing can refuse, so every error names the one at fault.
 *
 * @module
 */

/** The paths of the payload, encoding and hash-function fields of one payload in a request. */
export interface PayloadFields {
  /** E.g. `parameters.payload`, or `parameters.payloads[3]` for the fourth payload of a batch. */
  readonly payload: string;
  /** E.g. `parameters.encoding`. */
  readonly encoding: string;
  /** E.g. `parameters.hashFunction`. */
  readonly hashFunction: string;
}

/**
 * The field paths under `prefix` (the path of the intent's parameters, `parameters` on the wire). With an
 * `index`, the payload is element `index` of `payloads` (`sign_raw_payloads`); without, it is `payload`.
 */
export function payloadFields(prefix = "parameters", index?: number): PayloadFields {
  return {
    payload: index === undefined ? `${prefix}.payload` : `${prefix}.payloads[${index}]`,
    encoding: `${prefix}.encoding`,
    hashFunction: `${prefix}.hashFunction`,
  };
}
