/**
 * Size limits of raw-payload signing. They bound the work one request can ask for; the HTTP adapter's body
 * limit bounds the request as a whole.
 *
 * Turnkey does not publish these limits (its resource-limits page covers stored objects only), so they are
 * custodian's own: generous for every payload the official SDKs produce, small enough that one request cannot
 * occupy a signing core for long.
 *
 * @module
 */

/**
 * Largest payload, in bytes after decoding: hex digits count half, text and JSON documents count their UTF-8
 * bytes. 64 KiB holds the largest Solana transaction (1,232 bytes), EIP-712 orders with long item lists, and
 * Cosmos sign docs with room to spare.
 */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * Most payloads in one `sign_raw_payloads` call. 1,000 secp256k1 signatures take well under a second on one
 * core (see `bench/sign.bench.ts`); callers with more split them over several activities.
 */
export const MAX_PAYLOADS_PER_REQUEST = 1_000;

/**
 * Deepest nesting of `{` and `[` in an EIP-712 or EIP-7702 JSON payload. Real typed data nests a handful of
 * levels; the bound keeps recursive walkers (JSON revivers, struct encoders) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;
