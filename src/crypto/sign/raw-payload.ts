/**
 * The signing core of `sign_raw_payload` (`ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2`) and `sign_raw_payloads`
 * (`ACTIVITY_TYPE_SIGN_RAW_PAYLOADS`): the engine resolves `signWith` to a key and calls these with the intent's
 * payload(s), encoding and hash function; they return the wire signatures. Pure: no storage, clock or I/O.
 *
 * @module
 */
import { invalidArgument } from "../../common/errors.js";
import { type TypedDataBudget, typedDataBudget, typedDataDigest } from "./eip712-digest.js";
import type { HashFunction, PayloadEncoding, SigningCurve } from "./enums.js";
import { type PayloadFields, payloadFields } from "./fields.js";
import { MAX_PAYLOADS_PER_REQUEST } from "./limits.js";
import { encodePayload } from "./payload.js";
import { assertSigningScheme, type SigningInput, toSigningInput } from "./scheme.js";
import { fromSixtyFourByteSignature, type RawPayloadSignature } from "./signature.js";
import { type PreparedSigner, prepareSigner } from "./signer.js";

/** The key to sign with: a {@link PreparedSigner} kept by the caller, or a curve and raw private key. */
export type SigningKey =
  | { readonly signer: PreparedSigner }
  | { readonly curve: SigningCurve; readonly privateKey: Uint8Array };

/** The parameters shared by {@link signRawPayload} and {@link signRawPayloads}. */
export interface SigningParameters {
  /** How the payload string is decoded (`v1PayloadEncoding`). */
  readonly encoding: PayloadEncoding;
  /** What is done to the decoded bytes before signing (`v1HashFunction`). */
  readonly hashFunction: HashFunction;
  /** Path of the intent's parameters in the request, for error fields. Default `parameters`. */
  readonly field?: string;
  /**
   * Sign as a taproot key-path spend: `signWith` named a P2TR address, so the digest is signed with BIP340
   * Schnorr by the BIP86-tweaked key (see `signer.ts`), which is what @turnkey/bitcoin's `signSchnorr` expects.
   * Only secp256k1 keys and the byte encodings (hex, UTF-8 text) can be signed this way.
   */
  readonly taproot?: boolean;
}

/** The request of {@link signRawPayload}. */
export type SignRawPayloadRequest = SigningKey & SigningParameters & { readonly payload: string };

/** The request of {@link signRawPayloads}. */
export type SignRawPayloadsRequest = SigningKey & SigningParameters & { readonly payloads: readonly string[] };

/**
 * Signs one payload (`sign_raw_payload`): decodes it by `encoding`, hashes it by `hashFunction`, signs it, and
 * returns the wire `{r, s, v}`. See `scheme.ts` for which combinations each curve accepts and what is signed.
 *
 * @throws CustodyError `INVALID_ARGUMENT` naming `<field>.payload`, `<field>.encoding` or `<field>.hashFunction`;
 *   `INVALID_ARGUMENT` naming `privateKey` for a malformed key; `UNIMPLEMENTED` for a curve other than
 *   secp256k1, Ed25519 or P-256.
 */
export function signRawPayload(request: SignRawPayloadRequest): RawPayloadSignature {
  const fields = payloadFields(request.field);
  const signer = schemeSigner(request, fields);
  return signOne(signer, request.payload, request, fields, typedDataBudget());
}

/**
 * Signs every payload of a `sign_raw_payloads` call with the same encoding, hash function and key, in order.
 * At most {@link MAX_PAYLOADS_PER_REQUEST} payloads; a payload's errors name `<field>.payloads[i]`.
 *
 * @throws CustodyError as {@link signRawPayload}; `INVALID_ARGUMENT` naming `<field>.payloads` for an empty
 *   list or one longer than {@link MAX_PAYLOADS_PER_REQUEST} (details carry `limit`).
 */
export function signRawPayloads(request: SignRawPayloadsRequest): RawPayloadSignature[] {
  return [...signingSteps(request)];
}

/**
 * {@link signRawPayloads}, giving the event loop back after every {@link PAYLOADS_PER_SLICE} payloads: a full
 * request (1,000 payloads of up to 64 KiB) is a few hundred milliseconds of hashing and signing, which other
 * requests must not wait behind.
 */
export async function signRawPayloadsInSlices(request: SignRawPayloadsRequest): Promise<RawPayloadSignature[]> {
  return drainInSlices(signingSteps(request));
}

function* signingSteps(request: SignRawPayloadsRequest): Generator<RawPayloadSignature> {
  const prefix = request.field ?? "parameters";
  const { payloads } = request;
  assertPayloadList(payloads, prefix);
  const signer = schemeSigner(request, payloadFields(prefix));
  // One hashing budget for the whole list (MAX_EIP712_HASH_BLOCKS), so a thousand documents cost what one may.
  const budget = typedDataBudget();
  for (const [index, payload] of payloads.entries()) {
    yield signOne(signer, payload, request, payloadFields(prefix, index), budget);
  }
}

/** How many payloads are signed or planned between two returns to the event loop (about 10–20 ms of work). */
const PAYLOADS_PER_SLICE = 50;

async function drainInSlices<T>(steps: Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for (const step of steps) {
    out.push(step);
    if (out.length % PAYLOADS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

function assertPayloadList(payloads: readonly string[], prefix: string): void {
  const listField = `${prefix}.payloads`;
  if (!Array.isArray(payloads) || payloads.length === 0) {
    throw invalidArgument(`${listField} must be a non-empty list of payloads`, listField);
  }
  // A fixed ceiling on the work of one activity: a retry can never succeed, so this is INVALID_ARGUMENT rather
  // than RESOURCE_EXHAUSTED (HTTP 429, which clients read as "try again later").
  if (payloads.length > MAX_PAYLOADS_PER_REQUEST) {
    throw invalidArgument(
      `${listField} has ${payloads.length} payloads; at most ${MAX_PAYLOADS_PER_REQUEST} can be signed in one request`,
      listField,
      { limit: MAX_PAYLOADS_PER_REQUEST },
    );
  }
}

/**
 * What a key signs, decided without the key: a digest (secp256k1, P-256; an EIP-712 document already hashed)
 * or a message (Ed25519). Plain bytes, so it can be handed to another thread.
 */
export type PlannedInput =
  | { readonly kind: "digest"; readonly digest: Uint8Array }
  | { readonly kind: "message"; readonly message: Uint8Array };

/** The signatures a request asks of a key of `curve`, checked and hashed, ready for {@link signPlan}. */
export interface SigningPlan {
  readonly curve: SigningCurve;
  readonly taproot: boolean;
  readonly inputs: readonly PlannedInput[];
}

/**
 * Everything {@link signRawPayload} does before the signature, for a key of `curve` that is not at hand (it
 * lives in another thread): the same checks, in the same order, with the same errors.
 */
export function planRawPayload(
  curve: SigningCurve,
  request: SigningParameters & { readonly payload: string },
): SigningPlan {
  const fields = payloadFields(request.field);
  assertPlanScheme(curve, request, fields);
  return {
    curve,
    taproot: request.taproot === true,
    inputs: [planOne(curve, request.payload, request, fields, typedDataBudget())],
  };
}

/** As {@link planRawPayload}, for {@link signRawPayloads}. */
export function planRawPayloads(
  curve: SigningCurve,
  request: SigningParameters & { readonly payloads: readonly string[] },
): SigningPlan {
  return { curve, taproot: request.taproot === true, inputs: [...planningSteps(curve, request)] };
}

/** {@link planRawPayloads}, giving the event loop back as {@link signRawPayloadsInSlices} does. */
export async function planRawPayloadsInSlices(
  curve: SigningCurve,
  request: SigningParameters & { readonly payloads: readonly string[] },
): Promise<SigningPlan> {
  return { curve, taproot: request.taproot === true, inputs: await drainInSlices(planningSteps(curve, request)) };
}

function* planningSteps(
  curve: SigningCurve,
  request: SigningParameters & { readonly payloads: readonly string[] },
): Generator<PlannedInput> {
  const prefix = request.field ?? "parameters";
  assertPayloadList(request.payloads, prefix);
  assertPlanScheme(curve, request, payloadFields(prefix));
  const budget = typedDataBudget();
  for (const [index, payload] of request.payloads.entries()) {
    yield planOne(curve, payload, request, payloadFields(prefix, index), budget);
  }
}

/**
 * Signs a plan with the key it was made for. The plan was checked when made; a signer of another curve is
 * refused, since its signatures would answer a request it was not checked for.
 */
export function signPlan(signer: PreparedSigner, plan: SigningPlan): RawPayloadSignature[] {
  if (signer.curve !== plan.curve) {
    throw invalidArgument(`the plan was made for a ${plan.curve} key, not a ${signer.curve} one`);
  }
  return plan.inputs.map((input) => {
    if (!plan.taproot) return signer.sign(input);
    if (input.kind !== "digest" || !signer.taproot)
      throw invalidArgument("a taproot signature needs a secp256k1 digest");
    return fromSixtyFourByteSignature(signer.taproot.sign(input.digest, "payload"));
  });
}

function assertPlanScheme(curve: SigningCurve, request: SigningParameters, fields: PayloadFields): void {
  assertSigningScheme(curve, request.encoding, request.hashFunction, fields);
  if (request.taproot) assertTaprootScheme(curve, request.encoding, fields);
}

function planOne(
  curve: SigningCurve,
  payload: string,
  request: SigningParameters,
  fields: PayloadFields,
  budget: TypedDataBudget,
): PlannedInput {
  const input: SigningInput = toSigningInput(
    curve,
    encodePayload(payload, request.encoding, fields),
    request.hashFunction,
    fields.payload,
  );
  if (request.taproot && input.kind !== "digest") {
    throw invalidArgument("a taproot signature needs a secp256k1 digest", fields.payload);
  }
  // An EIP-712 document is hashed here, as signTypedData hashes it, so the thread that signs gets a digest.
  return input.kind === "typedData"
    ? { kind: "digest", digest: typedDataDigest(input.typedData, input.field, budget) }
    : input;
}

/** Checks the scheme against the key's curve (before any key work), then prepares the key if needed. */
function schemeSigner(request: SigningKey & SigningParameters, fields: PayloadFields): PreparedSigner {
  const curve = "signer" in request ? request.signer.curve : request.curve;
  assertSigningScheme(curve, request.encoding, request.hashFunction, fields);
  if (request.taproot) assertTaprootScheme(curve, request.encoding, fields);
  return "signer" in request ? request.signer : prepareSigner(request.curve, request.privateKey);
}

/** A taproot signature is BIP340 Schnorr over a digest: the Ethereum encodings define ECDSA-signed digests. */
function assertTaprootScheme(curve: SigningCurve, encoding: PayloadEncoding, fields: PayloadFields): void {
  if (curve !== "CURVE_SECP256K1") {
    throw invalidArgument(`a taproot signature needs a secp256k1 key, not a ${curve} one`, fields.encoding);
  }
  if (encoding !== "PAYLOAD_ENCODING_HEXADECIMAL" && encoding !== "PAYLOAD_ENCODING_TEXT_UTF8") {
    throw invalidArgument(
      `${fields.encoding} ${encoding} cannot be signed with a taproot (P2TR) address: it signs BIP340 Schnorr over a hex or text payload`,
      fields.encoding,
    );
  }
}

function signOne(
  signer: PreparedSigner,
  payload: string,
  { encoding, hashFunction, taproot }: SigningParameters,
  fields: PayloadFields,
  budget: TypedDataBudget,
): RawPayloadSignature {
  const encoded = encodePayload(payload, encoding, fields);
  const given = toSigningInput(signer.curve, encoded, hashFunction, fields.payload);
  // An EIP-712 document is hashed here, charged to the request's budget; the key signs the digest, as
  // signTypedData would.
  const input: SigningInput =
    given.kind === "typedData"
      ? { kind: "digest", digest: typedDataDigest(given.typedData, given.field, budget) }
      : given;
  if (!taproot) return signer.sign(input);
  // assertTaprootScheme allowed only secp256k1 keys and byte encodings, which give a digest and a taproot signer.
  if (input.kind !== "digest" || !signer.taproot) {
    throw invalidArgument("a taproot signature needs a secp256k1 digest", fields.payload);
  }
  return fromSixtyFourByteSignature(signer.taproot.sign(input.digest, fields.payload));
}
