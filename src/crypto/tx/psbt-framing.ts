/**
 * How many input and output maps a PSBT has, read from its key-value framing (BIP174: after the magic, maps of
 * `<CompactSize key length> <key> <CompactSize value length> <value>` pairs, each map ended by a zero byte),
 * without decoding a key or a value.
 *
 * `@scure/btc-signer` decodes and checks every field of every map (a taproot script's key costs a square root on
 * the curve), so a PSBT is counted first and refused before that work when it holds more maps than one request
 * may ask for. The framing is the same in PSBT versions 0 and 2; the global map comes first, then one map per
 * input and per output.
 *
 * @module
 */

const MAGIC_BYTES = 5;

/** The number of maps after the global one (inputs plus outputs), counting stops once past `stopAfter`. */
export function psbtEntryMaps(bytes: Uint8Array, stopAfter: number): number {
  let offset = MAGIC_BYTES;
  // The global map is not counted.
  let maps = -1;
  const readSize = (): number | undefined => {
    const first = bytes[offset];
    if (first === undefined) return undefined;
    const width = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    if (offset + 1 + width > bytes.length) return undefined;
    let value = width === 0 ? first : 0;
    for (let index = width; index >= 1; index--) value = value * 256 + (bytes[offset + index] as number);
    offset += 1 + width;
    return value;
  };
  while (offset < bytes.length && maps <= stopAfter) {
    const keyLength = readSize();
    if (keyLength === undefined) break;
    if (keyLength === 0) {
      maps++;
      continue;
    }
    offset += keyLength;
    const valueLength = readSize();
    if (valueLength === undefined) break;
    offset += valueLength;
  }
  return Math.max(maps, 0);
}
