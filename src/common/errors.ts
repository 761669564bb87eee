/**
 * The one error type of custodian's public surface.
 *
 * Every refusal carries a stable string `code` that callers can switch on, the matching gRPC number and
 * HTTP status (the wire protocol's error table), a message a person can act on, and structured details:
 * the field at fault, the Turnkey-style reason (`SIGNATURE_INVALID`, `PUBLIC_KEY_NOT_FOUND`, ...) and
 * anything else that helps explain it.
 *
 * @module
 */

/** Stable error codes. They are API: never rename one. */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "FAILED_PRECONDITION"
  | "OUT_OF_RANGE"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "ABORTED"
  | "RESOURCE_EXHAUSTED"
  | "DEADLINE_EXCEEDED"
  | "UNIMPLEMENTED"
  | "UNAVAILABLE"
  | "INTERNAL";

interface CodeInfo {
  grpc: number;
  http: number;
}

/** gRPC numbers and HTTP statuses as grpc-gateway maps them (docs/spec/wire-protocol.md §6). */
const CODE_INFO: Record<ErrorCode, CodeInfo> = {
  INVALID_ARGUMENT: { grpc: 3, http: 400 },
  FAILED_PRECONDITION: { grpc: 9, http: 400 },
  OUT_OF_RANGE: { grpc: 11, http: 400 },
  UNAUTHENTICATED: { grpc: 16, http: 401 },
  PERMISSION_DENIED: { grpc: 7, http: 403 },
  NOT_FOUND: { grpc: 5, http: 404 },
  ALREADY_EXISTS: { grpc: 6, http: 409 },
  ABORTED: { grpc: 10, http: 409 },
  RESOURCE_EXHAUSTED: { grpc: 8, http: 429 },
  DEADLINE_EXCEEDED: { grpc: 4, http: 504 },
  UNIMPLEMENTED: { grpc: 12, http: 501 },
  UNAVAILABLE: { grpc: 14, http: 503 },
  INTERNAL: { grpc: 13, http: 500 },
};

/** Structured context of an error. Every member is optional; none may hold secret material. */
export interface ErrorDetails {
  /** Dotted path of the request field at fault, e.g. `parameters.accounts[0].path`. */
  field?: string;
  /** Turnkey's finer reason code (`SIGNATURE_INVALID`, `API_KEY_EXPIRED`, ...), carried in the wire details. */
  reason?: string;
  /** Character offset in an expression or document, for parse errors. */
  position?: number;
  /** Anything else that explains the refusal (ids of the objects at fault, a limit, ...). */
  [key: string]: unknown;
}

/** One entry of the wire `rpcStatus.details` array (`protobufAny`). */
export interface WireErrorDetail {
  "@type": string;
  [key: string]: unknown;
}

/** The wire error body (`rpcStatus`). */
export interface RpcStatus {
  code: number;
  message: string;
  details: WireErrorDetail[];
}

const TURNKEY_DETAIL_TYPE = "type.googleapis.com/errors.v1.TurnkeyErrorDetail";
const BAD_REQUEST_DETAIL_TYPE = "type.googleapis.com/google.rpc.BadRequest";
const CUSTODIAN_DETAIL_TYPE = "type.googleapis.com/custodian.v1.ErrorDetail";

/** Options of a {@link CustodyError} beyond its code, message and details. */
export interface CustodyErrorOptions {
  cause?: unknown;
  /**
   * The exact wire `details` to answer with, for refusals whose body the hosted service's clients pin
   * (a policy denial); the structured {@link CustodyError.details} then stay in-process only.
   */
  wireDetails?: readonly WireErrorDetail[];
}

/**
 * Marks every {@link CustodyError}, so that one made by another copy of this module is still recognized: the
 * CommonJS build beside the ESM one, or two installed versions of the package. `Symbol.for` is shared by
 * every copy in the process, where each copy has its own class.
 */
const CUSTODY_ERROR_BRAND = Symbol.for("custodian.CustodyError");

/** An error with a stable code, the gRPC number and HTTP status it maps to, and structured details. */
export class CustodyError extends Error {
  override readonly name = "CustodyError";
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** See {@link CustodyErrorOptions.wireDetails}. */
  readonly wireDetails: readonly WireErrorDetail[] | undefined;

  /** An error of `code` with a message a person can act on and the details that explain it. */
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options: CustodyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = details;
    this.wireDetails = options.wireDetails;
    Object.defineProperty(this, CUSTODY_ERROR_BRAND, { value: true });
  }

  /** The gRPC status number of this error's code. */
  get grpcCode(): number {
    return CODE_INFO[this.code].grpc;
  }

  /** The HTTP status of this error's code. */
  get httpStatus(): number {
    return CODE_INFO[this.code].http;
  }

  /** The dotted path of the field at fault, when there is one. */
  get field(): string | undefined {
    return this.details.field;
  }

  /**
   * The wire form (`rpcStatus`): `{code, message, details[]}`, with a Turnkey error detail carrying the
   * reason, a `google.rpc.BadRequest` field violation when a field is named, and custodian's own detail
   * with the string code and the remaining context.
   */
  toRpcStatus(): RpcStatus {
    if (this.wireDetails !== undefined) {
      return { code: this.grpcCode, message: this.message, details: this.wireDetails.map((detail) => ({ ...detail })) };
    }
    const { field, reason, ...rest } = this.details;
    const details: WireErrorDetail[] = [
      { "@type": TURNKEY_DETAIL_TYPE, turnkeyErrorCode: reason ?? this.code },
      {
        "@type": CUSTODIAN_DETAIL_TYPE,
        code: this.code,
        ...(field !== undefined ? { field } : {}),
        // Kept here too, so a recorded failure can be rebuilt exactly (an idempotent resubmission).
        ...(reason !== undefined ? { reason } : {}),
        ...rest,
      },
    ];
    if (field !== undefined) {
      details.push({ "@type": BAD_REQUEST_DETAIL_TYPE, fieldViolations: [{ field, description: this.message }] });
    }
    return { code: this.grpcCode, message: this.message, details };
  }

  /** A plain object for logs and activity failures. */
  toJSON(): { code: ErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Whether `value` is a {@link CustodyError}, also one made by another copy of custodian (its CommonJS build
 * beside the ESM one, or another installed version), where `instanceof` answers false.
 */
export function isCustodyError(value: unknown): value is CustodyError {
  return (
    value instanceof CustodyError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { [CUSTODY_ERROR_BRAND]?: unknown })[CUSTODY_ERROR_BRAND] === true)
  );
}

/** `INVALID_ARGUMENT` naming the field at fault. */
export function invalidArgument(message: string, field?: string, extra: ErrorDetails = {}): CustodyError {
  return new CustodyError("INVALID_ARGUMENT", message, field === undefined ? extra : { field, ...extra });
}

/** `NOT_FOUND` for an object of `kind` with `id`. */
export function notFound(kind: string, id: string, field?: string): CustodyError {
  return new CustodyError("NOT_FOUND", `${kind} not found: ${id}`, {
    ...(field !== undefined ? { field } : {}),
    reason: `${kind.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_NOT_FOUND`,
    id,
  });
}

/** The code of a gRPC number, for errors rebuilt from a recorded `rpcStatus`; `INTERNAL` for an unknown one. */
export function errorCodeOfGrpc(grpc: number): ErrorCode {
  const found = Object.entries(CODE_INFO).find(([, info]) => info.grpc === grpc);
  return (found?.[0] as ErrorCode | undefined) ?? "INTERNAL";
}

/** The gRPC number for a code, for hosts that map errors themselves. */
export function grpcCodeOf(code: ErrorCode): number {
  return CODE_INFO[code].grpc;
}

/** The HTTP status for a code. */
export function httpStatusOf(code: ErrorCode): number {
  return CODE_INFO[code].http;
}
