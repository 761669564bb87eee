/**
 * Signing: `sign_raw_payload` and `sign_raw_payloads`. `signWith` names a wallet account's address, a
 * private key's address, or a private key id, in the request's organization only. Prepared signers are
 * cached per account or key in memory, so the hot path is a cache hit and one signature.
 *
 * @module
 */
import * as v from "valibot";
import { notFound } from "../common/errors.js";
import { type ActivityContext, defineActivity, type PolicyTargetData } from "../contract/operation.js";
import { withoutNul } from "../contract/schema.js";
import type { EngineServices } from "../contract/services.js";
import { normalizeAddressForLookup } from "../crypto/addresses/index.js";
import {
  HASH_FUNCTIONS,
  MAX_PAYLOAD_BYTES,
  MAX_PAYLOADS_PER_REQUEST,
  PAYLOAD_ENCODINGS,
  type PreparedSigner,
  planRawPayload,
  planRawPayloadsInSlices,
  type RawPayloadSignature,
  type SigningCurve,
  type SigningPlan,
  signRawPayload,
  signRawPayloadsInSlices,
} from "../crypto/sign/index.js";
import { privateKeyPolicyData, walletAccountTarget } from "../domain/policy-targets.js";
import { rawPayloadPolicyData } from "../domain/raw-payload-policy.js";
import { accountSigner, privateKeySigner } from "../keys/key-material.js";
import type { SignerPool } from "../keys/signer-pool/pool.js";
import type { SealedKey } from "../keys/signer-pool/protocol.js";
import { addressRecordId, type DataReader } from "../model/data.js";
import type { PrivateKeyRecord, WalletAccountRecord, WalletRecord } from "../model/records.js";
import { privateKeyContext } from "./private-keys.js";
import { mnemonicContext, walletSeed } from "./wallets.js";

/** What `signWith` resolved to. */
export type SigningTarget =
  | { kind: "walletAccount"; account: WalletAccountRecord }
  | { kind: "privateKey"; privateKey: PrivateKeyRecord };

/**
 * Resolves `signWith` in `organizationId`: an address first, then a private key id. Once per view: a signing
 * activity resolves it for its policy context and again in its handler, in the same transaction, which nothing
 * between them writes to.
 */
export function resolveSigningTarget(
  data: DataReader,
  organizationId: string,
  signWith: string,
  field: string,
): Promise<SigningTarget> {
  return data.remembered(`signingTarget\u0000${organizationId}\u0000${signWith}`, () =>
    lookUpSigningTarget(data, organizationId, signWith, field),
  );
}

async function lookUpSigningTarget(
  data: DataReader,
  organizationId: string,
  signWith: string,
  field: string,
): Promise<SigningTarget> {
  const owner = await data.get("addresses", addressRecordId(organizationId, signWith));
  if (owner?.kind === "walletAccount") {
    const account = await data.get("walletAccounts", owner.ownerId);
    if (account) return { kind: "walletAccount", account };
  }
  const privateKeyId = owner?.kind === "privateKey" ? owner.ownerId : signWith;
  const privateKey = await data.get("privateKeys", privateKeyId);
  if (privateKey && privateKey.organizationId === organizationId) return { kind: "privateKey", privateKey };
  throw notFound("signing key", signWith, field);
}

/** What a signing activity shows policies about its key: `wallet` and `wallet_account`, or `private_key`. */
export async function signingTargetPolicyData(data: DataReader, target: SigningTarget): Promise<PolicyTargetData> {
  return target.kind === "walletAccount"
    ? walletAccountTarget(data, target.account)
    : { private_key: privateKeyPolicyData(target.privateKey) };
}

/**
 * What a signing activity shows policies: {@link signingTargetPolicyData} of the key `signWith` names. An
 * unknown `signWith` shows nothing, so the handler reports it as NOT_FOUND rather than a policy error.
 */
async function signingPolicyTarget(
  data: DataReader,
  organizationId: string,
  signWith: string,
): Promise<PolicyTargetData> {
  const target = await resolveSigningTarget(data, organizationId, signWith, "parameters.signWith").catch(
    () => undefined,
  );
  return target ? signingTargetPolicyData(data, target) : {};
}

/** The cached prepared signer of a target, deriving or unsealing its private key on a miss. */
export async function signerOf(
  data: DataReader,
  services: EngineServices,
  target: SigningTarget,
): Promise<PreparedSigner> {
  if (target.kind === "privateKey") {
    const { privateKey } = target;
    return services.keys.signer(privateKey.id, async () =>
      privateKeySigner(
        privateKey.curve,
        services.secrets.unseal(privateKey.sealedPrivateKey, privateKeyContext(privateKey.id)),
      ),
    );
  }
  const { account } = target;
  return services.keys.signer(account.id, async () => {
    const keys = await walletSeed(services, await walletOf(data, account));
    return accountSigner(keys, account, services.strictEd25519Paths);
  });
}

async function walletOf(data: DataReader, account: WalletAccountRecord): Promise<WalletRecord> {
  const wallet = await data.get("wallets", account.walletId);
  if (!wallet) throw notFound("wallet", account.walletId);
  return wallet;
}

/**
 * The prepared signer that `signWith` names in the request's organization, and whether it names a P2TR
 * address: raw payloads signed with one are taproot key-path signatures (BIP340 Schnorr by the tweaked key),
 * which is what @turnkey/bitcoin's `signSchnorr` sends them for. The same key named by another address or by
 * its id signs ECDSA.
 */
async function signerFor(
  context: ActivityContext,
  target: SigningTarget,
  signWith: string,
): Promise<{ signer: PreparedSigner; taproot: boolean }> {
  return {
    signer: await signerOf(context.data, context.services, target),
    taproot: namesTaprootAddress(target, signWith),
  };
}

/** The target's key as the store holds it (sealed), for a signer thread to open. */
async function sealedKeyOf(data: DataReader, target: SigningTarget): Promise<SealedKey> {
  if (target.kind === "privateKey") {
    const { privateKey } = target;
    return {
      kind: "privateKey",
      id: privateKey.id,
      curve: privateKey.curve as SigningCurve,
      sealed: privateKey.sealedPrivateKey,
      context: privateKeyContext(privateKey.id),
    };
  }
  const { account } = target;
  const wallet = await walletOf(data, account);
  return {
    kind: "walletAccount",
    id: account.id,
    curve: account.curve as SigningCurve,
    path: account.path,
    walletId: wallet.id,
    sealed: wallet.sealedMnemonic,
    context: mnemonicContext(wallet.id),
  };
}

/**
 * Signs `plan` on a signer thread, outside the activity's transaction; the activity is then recorded only if
 * the key still exists (deleted meanwhile, it fails as NOT_FOUND, as it would have a moment later).
 */
async function signOnThread(
  context: ActivityContext,
  signers: SignerPool,
  target: SigningTarget,
  signWith: string,
  plan: SigningPlan,
): Promise<RawPayloadSignature[]> {
  const key = await sealedKeyOf(context.data, target);
  return context.outsideTransaction(
    () => signers.sign(key, plan),
    (data) => assertSigningTargetExists(data, target, signWith),
  );
}

/**
 * The `confirm` of a signature made outside the activity's transaction: the key must still exist (deleted
 * meanwhile, the activity fails as NOT_FOUND, as it would have a moment later).
 */
export async function assertSigningTargetExists(
  data: DataReader,
  target: SigningTarget,
  signWith: string,
): Promise<void> {
  const still =
    target.kind === "privateKey"
      ? await data.get("privateKeys", target.privateKey.id)
      : await data.get("walletAccounts", target.account.id);
  if (!still) throw notFound("signing key", signWith, "parameters.signWith");
}

const curveOf = (target: SigningTarget): SigningCurve =>
  (target.kind === "privateKey" ? target.privateKey.curve : target.account.curve) as SigningCurve;

/** Whether `signWith` resolved to `target` through one of its P2TR addresses (any Bitcoin network). */
function namesTaprootAddress(target: SigningTarget, signWith: string): boolean {
  const isTaproot = (format: string) => format.startsWith("ADDRESS_FORMAT_BITCOIN_") && format.endsWith("_P2TR");
  if (target.kind === "walletAccount") return isTaproot(target.account.addressFormat);
  const wanted = normalizeAddressForLookup(signWith);
  return target.privateKey.addresses.some(
    (entry) => isTaproot(entry.format) && normalizeAddressForLookup(entry.address) === wanted,
  );
}

export const signWith = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(512), withoutNul);
// Hex doubles the bytes (plus an optional 0x); the byte limit itself is checked after decoding.
const payload = v.pipe(
  v.string(),
  v.maxLength(MAX_PAYLOAD_BYTES * 2 + 2, `must be at most ${MAX_PAYLOAD_BYTES} bytes`),
);
const encoding = v.picklist(PAYLOAD_ENCODINGS);
const hashFunction = v.picklist(HASH_FUNCTIONS);

export const signRawPayloadOperation = defineActivity({
  method: "signRawPayload",
  path: "sign_raw_payload",
  versions: [
    {
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      intent: "signRawPayloadIntentV2",
      result: "signRawPayloadResult",
      parameters: v.object({ signWith, payload, encoding, hashFunction }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params) {
    return {
      ...(await signingPolicyTarget(context.data, context.organization.id, params.signWith)),
      ...rawPayloadPolicyData(params.encoding, [params.payload]),
    };
  },
  async handler(context, params) {
    const target = await resolveSigningTarget(
      context.data,
      context.organization.id,
      params.signWith,
      "parameters.signWith",
    );
    const { signers } = context.services;
    if (signers) {
      const plan = planRawPayload(curveOf(target), {
        taproot: namesTaprootAddress(target, params.signWith),
        payload: params.payload,
        encoding: params.encoding,
        hashFunction: params.hashFunction,
      });
      const [signature] = await signOnThread(context, signers, target, params.signWith, plan);
      return { ...(signature as RawPayloadSignature) };
    }
    const { signer, taproot } = await signerFor(context, target, params.signWith);
    return {
      ...signRawPayload({
        signer,
        taproot,
        payload: params.payload,
        encoding: params.encoding,
        hashFunction: params.hashFunction,
      }),
    };
  },
});

export const signRawPayloadsOperation = defineActivity({
  method: "signRawPayloads",
  path: "sign_raw_payloads",
  versions: [
    {
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS",
      intent: "signRawPayloadsIntent",
      result: "signRawPayloadsResult",
      parameters: v.object({
        signWith,
        payloads: v.pipe(
          v.array(payload),
          v.minLength(1, "must not be empty"),
          v.maxLength(
            MAX_PAYLOADS_PER_REQUEST,
            `at most ${MAX_PAYLOADS_PER_REQUEST} payloads can be signed in one request`,
          ),
        ),
        encoding,
        hashFunction,
      }),
    },
  ],
  policy: { resource: "PRIVATE_KEY", action: "SIGN" },
  async policyTarget(context, params) {
    return {
      ...(await signingPolicyTarget(context.data, context.organization.id, params.signWith)),
      ...rawPayloadPolicyData(params.encoding, params.payloads),
    };
  },
  async handler(context, params) {
    const target = await resolveSigningTarget(
      context.data,
      context.organization.id,
      params.signWith,
      "parameters.signWith",
    );
    const { signers } = context.services;
    if (signers) {
      const plan = await planRawPayloadsInSlices(curveOf(target), {
        taproot: namesTaprootAddress(target, params.signWith),
        payloads: params.payloads,
        encoding: params.encoding,
        hashFunction: params.hashFunction,
      });
      return { signatures: await signOnThread(context, signers, target, params.signWith, plan) };
    }
    const { signer, taproot } = await signerFor(context, target, params.signWith);
    // All or nothing: one bad payload throws before any signature is returned, failing the whole activity.
    const signatures = await signRawPayloadsInSlices({
      signer,
      taproot,
      payloads: params.payloads,
      encoding: params.encoding,
      hashFunction: params.hashFunction,
    });
    return { signatures };
  },
});
