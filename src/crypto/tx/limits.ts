/**
 * Size and work limits of `sign_transaction`. Turnkey does not publish any, so they are custodian's own.
 *
 * @module
 */

/**
 * Longest `unsignedTransaction`, in characters of its wire string. 256 Ki characters hold 128 KiB as hex, which
 * is geth's transaction size limit (`txMaxSize`, 4 × 32 KiB) and far above Solana's 1,232-byte packets, Tron
 * transactions and PSBTs carrying a few dozen previous transactions; anything longer is refused before it is
 * decoded.
 */
export const MAX_UNSIGNED_TRANSACTION_LENGTH = 256 * 1024;

/**
 * Most inputs of a PSBT one `sign_transaction` may carry. Each input costs parsing, a sighash, a signature and
 * re-encoding: 250 of this key's taproot inputs with 250 taproot outputs, the dearest PSBT the bounds allow, take
 * about 250 ms of one small server core in all, in turns of at most a few tens of milliseconds (signing gives the
 * event loop back every 25 signatures), so a concurrent request waits about 100 ms (`npm run adversarial` prints
 * the figure). Larger consolidations are split over several requests.
 */
export const MAX_PSBT_INPUTS = 250;

/** Most outputs of a PSBT one `sign_transaction` may carry: each is decoded for policies; see {@link MAX_PSBT_INPUTS}. */
export const MAX_PSBT_OUTPUTS = 250;

/**
 * Most bytes the legacy (P2PKH) signature hashes of one PSBT may cover: the number of this key's legacy inputs
 * times the unsigned transaction's size, since the legacy algorithm serializes the whole transaction again for
 * every input. 1 MiB takes about 100 ms (about 150 legacy inputs in one transaction); segwit and taproot inputs,
 * whose sighashes are linear, do not count.
 */
export const MAX_LEGACY_SIGHASH_BYTES = 1024 * 1024;

/**
 * Largest serialized Solana transaction, in bytes. The network carries at most 1,232 (one packet; SIMD-0296
 * proposes 4,096), so 32 KiB refuses nothing that can land, and bounds what decoding and the policy view cost:
 * a transaction of 128 KiB holds 43,000 empty instructions, whose decoding alone held the event loop for about
 * 200 ms; 32 KiB takes about a quarter of that.
 */
export const MAX_SOLANA_TRANSACTION_BYTES = 32 * 1024;

/**
 * Most entries the lists of one Ethereum transaction may hold together: access-list addresses, EIP-7702
 * authorizations and blob hashes. Decoding spells each address with its checksum (a keccak-256 each), so the
 * 5,600 access-list addresses a 128 KiB transaction holds took 100 to 300 ms; 1,024 take about 20. On chain,
 * 1,024 access-list addresses cost 2.4 million gas and 1,024 authorizations 12.8 million, and a block carries a
 * few blob hashes: nothing real comes near.
 */
export const MAX_ETHEREUM_LIST_ENTRIES = 1_024;
