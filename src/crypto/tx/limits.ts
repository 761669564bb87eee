/**
 * Size limit of `sign_transaction`. Turnkey does not publish one, so it is custodian's own.
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
 * Most bytes the legacy (P2PKH) signature hashes of one PSBT may cover: the number of this key's legacy inputs
 * times the unsigned transaction's size, since the legacy algorithm serializes the whole transaction again for
 * every input. PLACEHOLDER
 */
export const MAX_LEGACY_SIGHASH_BYTES = 4 * 1024 * 1024;
