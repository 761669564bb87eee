/** Byte length of r and of s for the 256-bit curves the stamp schemes use. */
const SCALAR_BYTES = 32;

/**
 * Reads an ASN.1 DER ECDSA signature `SEQUENCE { INTEGER r, INTEGER s }` into fixed-width `r ‖ s`
 * (IEEE P1363, 64 bytes), or undefined when it is not well-formed.
 *
 * Strict on structure (short-form lengths, no trailing bytes, no negative integers, values of at most
 * 32 bytes) but lenient on one point: an INTEGER may carry redundant leading zero bytes. `@turnkey/crypto`'s
 * `toDerSignature`, which wallet-stamper uses for EIP-191 stamps, keeps a 32-byte r or s whole even when its
 * top byte is zero, so roughly one wallet signature in 256 arrives in that form. Range checks of r and s
 * (non-zero, below the group order) are the verifier's.
 */
export function derSignatureToCompact(der: Uint8Array): Uint8Array | undefined {
  if (der[0] !== 0x30) return undefined;
  const sequenceLength = der[1];
  // Two INTEGERs of at most 32 bytes each fit a short-form length; the long form is never needed here.
  if (sequenceLength === undefined || sequenceLength >= 0x80 || sequenceLength !== der.length - 2) return undefined;
  const compact = new Uint8Array(2 * SCALAR_BYTES);
  let offset = 2;
  for (const slot of [0, 1]) {
    if (der[offset] !== 0x02) return undefined;
    const length = der[offset + 1];
    if (length === undefined || length === 0 || length >= 0x80) return undefined;
    const start = offset + 2;
    const end = start + length;
    if (end > der.length) return undefined;
    if (((der[start] as number) & 0x80) !== 0) return undefined;
    let first = start;
    while (first < end - 1 && der[first] === 0) first++;
    const magnitude = der.subarray(first, end);
    if (magnitude.length > SCALAR_BYTES) return undefined;
    compact.set(magnitude, slot * SCALAR_BYTES + SCALAR_BYTES - magnitude.length);
    offset = end;
  }
  return offset === der.length ? compact : undefined;
}
