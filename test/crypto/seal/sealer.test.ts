import { describe, expect, it } from "vitest";
import { CustodyError } from "../../../src/common/errors.js";
import { bytesToHex, decodeBase64Url, encodeBase64Url, utf8ToBytes } from "../../../src/crypto/bytes.js";
import { createSealer, SEAL_FORMAT_VERSION } from "../../../src/crypto/seal/index.js";
import { seededRandomBytes } from "../hpke/seeded-random.js";

const kek = seededRandomBytes("kek")(32);
const otherKek = seededRandomBytes("other-kek")(32);
const mnemonic = utf8ToBytes("legal winner thank year wave sausage worth useful legal winner thank yellow");
const context = "wallet:4b0e8c1a:mnemonic";

function caught(run: () => unknown): CustodyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    return error as CustodyError;
  }
  throw new Error("expected a CustodyError");
}

function flipByte(sealed: string, index: number): string {
  const bytes = decodeBase64Url(sealed)!;
  bytes[index] = (bytes[index] as number) ^ 0x01;
  return encodeBase64Url(bytes);
}

describe("createSealer", () => {
  it("round-trips a secret, also through a sealer rebuilt from the wrapped data key", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const sealed = sealer.seal(mnemonic, context);
    expect(sealer.open(sealed, context)).toEqual(mnemonic);
    const reopened = createSealer({ keyEncryptionKey: kek, wrappedDataKey: sealer.wrappedDataKey });
    expect(reopened.open(sealed, context)).toEqual(mnemonic);
  });

  it("round-trips empty and long plaintexts", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    for (const plaintext of [new Uint8Array(0), seededRandomBytes("long")(4096)]) {
      expect(sealer.open(sealer.seal(plaintext, context), context)).toEqual(plaintext);
    }
  });

  it("never writes the plaintext into the sealed value", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const sealed = sealer.seal(mnemonic, context);
    const sealedBytes = decodeBase64Url(sealed)!;
    expect(bytesToHex(sealedBytes)).not.toContain(bytesToHex(mnemonic));
    expect(sealed).not.toContain("legal");
    expect(Buffer.from(sealedBytes).toString("latin1")).not.toContain("legal winner");
  });

  it("starts sealed values and wrapped keys with the format version byte", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    expect(decodeBase64Url(sealer.seal(mnemonic, context))![0]).toBe(SEAL_FORMAT_VERSION);
    expect(decodeBase64Url(sealer.wrappedDataKey)![0]).toBe(SEAL_FORMAT_VERSION);
  });

  it("uses a fresh nonce per seal, so equal secrets do not look equal", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    expect(sealer.seal(mnemonic, context)).not.toBe(sealer.seal(mnemonic, context));
  });

  it("is deterministic under injected randomness", () => {
    const make = () => createSealer({ keyEncryptionKey: kek, randomBytes: seededRandomBytes("sealer") });
    const [a, b] = [make(), make()];
    expect(a.wrappedDataKey).toBe(b.wrappedDataKey);
    expect(a.seal(mnemonic, context)).toBe(b.seal(mnemonic, context));
  });

  it("refuses a wrong key-encryption key with FAILED_PRECONDITION and no key material in the error", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const error = caught(() => createSealer({ keyEncryptionKey: otherKek, wrappedDataKey: sealer.wrappedDataKey }));
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.details.reason).toBe("KEY_ENCRYPTION_KEY_MISMATCH");
    expect(error.message).toMatch(/keyEncryptionKey does not unwrap/);
    const serialized = JSON.stringify(error.toJSON());
    for (const key of [kek, otherKek]) {
      expect(serialized).not.toContain(bytesToHex(key));
      expect(serialized).not.toContain(encodeBase64Url(key));
    }
  });

  it("refuses a damaged wrapped data key", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const error = caught(() =>
      createSealer({ keyEncryptionKey: kek, wrappedDataKey: flipByte(sealer.wrappedDataKey, 20) }),
    );
    expect(error.code).toBe("FAILED_PRECONDITION");
  });

  it.each([
    ["not base64url", "!!!"],
    ["empty", ""],
    ["truncated", encodeBase64Url(new Uint8Array([SEAL_FORMAT_VERSION, 1, 2, 3]))],
  ])("refuses a wrapped data key that is %s with INVALID_ARGUMENT", (_, wrappedDataKey) => {
    const error = caught(() => createSealer({ keyEncryptionKey: kek, wrappedDataKey }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.field).toBe("wrappedDataKey");
  });

  it("refuses a key-encryption key that is not 32 bytes", () => {
    const error = caught(() => createSealer({ keyEncryptionKey: new Uint8Array(16) }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.field).toBe("keyEncryptionKey");
  });

  it("refuses tampered ciphertext, tag and nonce", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const sealed = sealer.seal(mnemonic, context);
    const length = decodeBase64Url(sealed)!.length;
    // nonce (header bytes 9..20), first ciphertext byte, last tag byte
    for (const index of [9, 21, length - 1]) {
      const error = caught(() => sealer.open(flipByte(sealed, index), context));
      expect(error.code).toBe("INTERNAL");
      expect(error.details.reason).toBe("SEALED_VALUE_AUTHENTICATION_FAILED");
    }
  });

  it("refuses a sealed value opened for another record (AAD mismatch)", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const sealed = sealer.seal(mnemonic, "wallet:a:mnemonic");
    const error = caught(() => sealer.open(sealed, "wallet:b:mnemonic"));
    expect(error.code).toBe("INTERNAL");
    expect(error.details.reason).toBe("SEALED_VALUE_AUTHENTICATION_FAILED");
  });

  it("refuses an empty record context", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    expect(caught(() => sealer.seal(mnemonic, "")).field).toBe("context");
  });

  it("refuses a value sealed under another data key with FAILED_PRECONDITION", () => {
    const first = createSealer({ keyEncryptionKey: kek });
    const second = createSealer({ keyEncryptionKey: kek });
    const error = caught(() => second.open(first.seal(mnemonic, context), context));
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.details.reason).toBe("DATA_KEY_MISMATCH");
  });

  it("refuses a format version it does not read with FAILED_PRECONDITION", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const bytes = decodeBase64Url(sealer.seal(mnemonic, context))!;
    bytes[0] = 2;
    const error = caught(() => sealer.open(encodeBase64Url(bytes), context));
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.details.reason).toBe("UNSUPPORTED_SEAL_FORMAT");
  });

  it("refuses a malformed sealed value with INTERNAL", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    for (const sealed of ["", "@@", encodeBase64Url(new Uint8Array([SEAL_FORMAT_VERSION, 0, 0]))]) {
      expect(caught(() => sealer.open(sealed, context)).code).toBe("INTERNAL");
    }
  });

  it("rotates the key-encryption key without touching sealed records", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    const sealed = sealer.seal(mnemonic, context);
    const rewrapped = sealer.rewrap(otherKek);
    expect(rewrapped).not.toBe(sealer.wrappedDataKey);

    const rotated = createSealer({ keyEncryptionKey: otherKek, wrappedDataKey: rewrapped });
    expect(rotated.open(sealed, context)).toEqual(mnemonic);
    expect(sealer.open(rotated.seal(mnemonic, context), context)).toEqual(mnemonic);

    expect(caught(() => createSealer({ keyEncryptionKey: kek, wrappedDataKey: rewrapped })).code).toBe(
      "FAILED_PRECONDITION",
    );
    expect(caught(() => createSealer({ keyEncryptionKey: otherKek, wrappedDataKey: sealer.wrappedDataKey })).code).toBe(
      "FAILED_PRECONDITION",
    );
  });

  it("refuses to rewrap under a key that is not 32 bytes", () => {
    const sealer = createSealer({ keyEncryptionKey: kek });
    expect(caught(() => sealer.rewrap(new Uint8Array(31))).field).toBe("newKeyEncryptionKey");
  });
});
