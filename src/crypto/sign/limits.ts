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

/**
 * Most keccak-256 blocks (136 bytes each, about 1 MiB in all) the EIP-712 digests of one request may hash,
 * across all its payloads. Hashing is the cost of a typed-data document, and the size of the payload does not
 * bound it: a struct member left out of the message hashes as a zero word, so `{}` of a type with a thousand
 * struct members hashes 32 KB, and a list of such values took seconds. 8,192 blocks take about 40 ms of one
 * small server core (`npm run adversarial` prints the figure of a whole request) and hold a `uint256[]` filling
 * the 64 KiB payload; real documents (a Seaport order with its items, a Permit2 batch, a small Hyperliquid
 * action) hash a few dozen blocks each. More goes in several requests.
 */
export const MAX_EIP712_HASH_BLOCKS = 8_192;
