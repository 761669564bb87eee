/**
 * Engine-wide settings and services a handler may use, resolved once from the engine options.
 *
 * @module
 */
import type { Oauth2Exchange } from "../auth/oauth2.js";
import type { OidcVerifier } from "../auth/oidc.js";
import type { WebauthnRelyingParty } from "../auth/relying-party.js";
import type { TokenSigner } from "../auth/token-signer.js";
import type { AssetRegistry } from "../chains/assets.js";
import type { GasStation } from "../chains/gas-station.js";
import type { ChainRegistry } from "../chains/registry.js";
import type { EnclaveSigner } from "../keys/enclave-signer.js";
import type { KeyCache } from "../keys/key-cache.js";
import type { SecretVault } from "../keys/secrets.js";
import type { SignerPool } from "../keys/signer-pool/pool.js";
import type { MessageSender } from "../messages/outbox.js";
import type { WebhookUrlRules } from "../webhooks/url-policy.js";

export interface EngineServices {
  /** Submissions older than this are refused (ms). */
  readonly maxRequestAgeMs: number;
  /** Submissions dated further ahead than this are refused (ms). */
  readonly maxClockSkewMs: number;
  /** Seals secrets before they reach the store. */
  readonly secrets: SecretVault;
  /** Derived keys kept in memory (never in the store). */
  readonly keys: KeyCache;
  /** The signer threads raw payloads are signed on (`signerThreads` option); absent: the calling thread signs. */
  readonly signers?: SignerPool;
  /** Refuse non-hardened ed25519 path levels instead of hardening them. */
  readonly strictEd25519Paths: boolean;
  /** The WebAuthn relying party: its id and the origins allowed per organization. */
  readonly webauthn: WebauthnRelyingParty;
  /** Verifies OIDC tokens against the issuers the host trusts. */
  readonly oidc: OidcVerifier;
  /** Opens OAuth 2.0 client secrets and exchanges codes at the token endpoints the host allows. */
  readonly oauth2: Oauth2Exchange;
  /** Signs export bundles and import targets with the engine's P-256 key. */
  readonly enclaveSigner: EnclaveSigner;
  /** What webhook URLs (endpoints, `FEATURE_NAME_WEBHOOK`) must satisfy. */
  readonly webhookUrls: WebhookUrlRules;
  /** Signs and checks session JWTs and OTP verification tokens with the engine's token key. */
  readonly tokens: TokenSigner;
  /** Delivers one-time codes and email-auth links (the in-memory outbox unless the host plugs a sender). */
  readonly messages: MessageSender;
  /** The chain backends the host named (engine option `chains`), by CAIP-2 id. */
  readonly chains: ChainRegistry;
  /** The assets of those chains: native coins and the tokens the host lists (engine option `tokens`). */
  readonly assets: AssetRegistry;
  /** The host's sponsor (engine option `gasStation`); absent: sponsored and batched sends are refused. */
  readonly gasStation?: GasStation;
}
