/**
 * Opens the engine's signed bundles (export bundles, import targets) inside a frame: the envelope
 * `{"version":"v1.0.0","data","dataSignature","enclaveQuorumPublic"}` must be signed by the engine's bundle
 * signer, whose public key the server writes into the frame's page, and its data must name the organization
 * (and, for import targets, the user) the parent page says it expects.
 *
 * @module
 */
import { p256 } from "@noble/curves/nist.js";
import { hexToBytes } from "@noble/hashes/utils.js";

/** What the signed data must name; the stamper passes both for import, the organization for export. */
export interface ExpectedSigner {
  organizationId: unknown;
  userId?: unknown;
}

const SIGNER_META = "custodian-signer-public-key";

/** The bundle signer's public key (65-byte uncompressed hex) from the frame page's `<meta>`. */
export function signerPublicKey(): string {
  const content = document.querySelector(`meta[name="${SIGNER_META}"]`)?.getAttribute("content");
  if (!content) throw new Error("this frame was served without the bundle signer's public key");
  return content.toLowerCase();
}

function stringMember(object: Record<string, unknown>, name: string, where: string): string {
  const value = object[name];
  if (typeof value !== "string" || value === "") throw new Error(`missing "${name}" in ${where}`);
  return value;
}

function parseObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function expectMember(data: Record<string, unknown>, name: string, expected: unknown): void {
  if (typeof expected !== "string" || expected === "") {
    throw new Error(`the request must name the ${name} the bundle is for`);
  }
  if (data[name] !== expected) {
    throw new Error(`${name} does not match expected value. Expected: ${expected}. Found: ${String(data[name])}.`);
  }
}

/** Checks the bundle's signature and names, and returns its signed data. */
export function openSignedBundle(bundle: unknown, expected: ExpectedSigner): Record<string, unknown> {
  if (typeof bundle !== "string") throw new Error("the bundle must be a string");
  const envelope = parseObject(bundle, "bundle");
  if (envelope.version !== "v1.0.0") throw new Error(`unsupported version: ${String(envelope.version)}`);
  const data = stringMember(envelope, "data", "bundle");
  const signature = stringMember(envelope, "dataSignature", "bundle");
  const signer = stringMember(envelope, "enclaveQuorumPublic", "bundle").toLowerCase();
  const trusted = signerPublicKey();
  if (signer !== trusted) {
    throw new Error(`bundle signed by ${signer}, not by this server's bundle signer ${trusted}`);
  }
  let dataBytes: Uint8Array;
  let verified: boolean;
  try {
    dataBytes = hexToBytes(data);
    // The engine signs with RFC 6979 over SHA-256 of the data bytes; either S half is accepted, as WebCrypto does.
    verified = p256.verify(hexToBytes(signature), dataBytes, hexToBytes(signer), { format: "der", lowS: false });
  } catch {
    verified = false;
    dataBytes = new Uint8Array();
  }
  if (!verified) throw new Error("failed to verify the bundle's signature");
  const signed = parseObject(new TextDecoder().decode(dataBytes), "signed data");
  expectMember(signed, "organizationId", expected.organizationId);
  if ("userId" in expected) expectMember(signed, "userId", expected.userId);
  return signed;
}
