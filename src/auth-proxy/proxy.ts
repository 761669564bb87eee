/**
 * The Auth Proxy API that `@turnkey/core` (and the wallet kits built on it) call for sign-up, one-time codes,
 * OAuth log-in and account look-up, without a backend of their own: the 13 `POST /v1/*` paths of the
 * `auth_proxy.swagger.json` that `@turnkey/core` ships. Every path is an engine call made as one user of the
 * parent organization (`userId`), so policies, activities and the outbox see the proxy like any other
 * client; there is no second path to storage.
 *
 * ```ts
 * const proxy = createAuthProxyHandler(engine, { organizationId, userId });
 * http.createServer((req, res) => proxy(req, res, () => api(req, res))); // authProxyUrl = the server's URL
 * ```
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import * as v from "valibot";
import { CustodyError, invalidArgument, isCustodyError } from "../common/errors.js";
import { decodeBase64Url, decodeUtf8Strict } from "../crypto/bytes.js";
import type { CustodyEngine } from "../engine/engine.js";
import { parseWith } from "../engine/pipeline/validate.js";
import { type NodeHttpHandler, readBody } from "../http/node.js";
import { DEFAULT_MAX_BODY_BYTES } from "../http/respond.js";

/** How the proxy behaves: the wallet-kit configuration the hosted dashboard would hold. */
export interface AuthProxyOptions {
  /** The parent organization: new users get sub-organizations of it, and codes are sent in its name. */
  organizationId: string;
  /** The user of that organization whose authority the proxy's activities run with (a root user, say). */
  userId: string;
  /** When set, requests must carry it in `X-Auth-Proxy-Config-ID`. */
  configId?: string;
  /** Sign-up and log-in methods on (`email`, `sms`, `passkey`, `wallet`, `google`, `apple`, ...). Default: all. */
  enabledProviders?: readonly string[];
  /** Session lifetime in seconds for `otp_login` and `oauth_login`, and reported to the kit. Default `"900"`. */
  sessionExpirationSeconds?: string;
  /** The app name one-time-code messages name. Default `custodian`. */
  appName?: string;
  /** Code length (6–9) and alphabet of one-time codes. Defaults: 9, alphanumeric. */
  otpLength?: number;
  otpAlphanumeric?: boolean;
  /** Reported to the kit by `wallet_kit_config`. */
  oauthClientIds?: Readonly<Record<string, string>>;
  oauthRedirectUrl?: string;
  /** Origins allowed to call cross-origin: `"*"` (default) or an exact list. */
  allowedOrigins?: "*" | readonly string[];
  /** Largest accepted body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Told about unexpected errors (answered with 500). */
  onError?: (error: unknown) => void;
}

const PREFIX = "/v1/";
const DEFAULT_PROVIDERS = ["email", "sms", "passkey", "wallet", "google", "apple", "facebook", "x", "discord"];
const ALLOWED_HEADERS = "Content-Type, X-Auth-Proxy-Config-ID, X-Captcha-Token";

type Body = Record<string, unknown>;
type Endpoint = (proxy: AuthProxy, body: Body) => Promise<Body>;

/** The proxy's engine calls, shared by its endpoints. */
class AuthProxy {
  readonly acting: CustodyEngine;

  constructor(
    readonly engine: CustodyEngine,
    readonly options: AuthProxyOptions,
  ) {
    this.acting = engine.as({ userId: options.userId, organizationId: options.organizationId });
  }

  get organizationId(): string {
    return this.options.organizationId;
  }

  assertEnabled(provider: string): void {
    const enabled = this.options.enabledProviders ?? DEFAULT_PROVIDERS;
    if (!enabled.includes(provider)) {
      throw new CustodyError("PERMISSION_DENIED", `${provider} sign-in is not enabled for this app`, {
        reason: "AUTH_METHOD_NOT_ENABLED",
      });
    }
  }

  /** The sub-organization holding a contact: a verified holder first, else any holder. */
  async subOrganizationByContact(otpType: string, contact: string): Promise<string | undefined> {
    const filterType = otpType === "OTP_TYPE_SMS" ? "PHONE_NUMBER" : "EMAIL";
    const query = { organizationId: this.organizationId, filterType, filterValue: contact } as const;
    const verified = await this.acting.getVerifiedSubOrgIds(query);
    if (verified.organizationIds[0] !== undefined) return verified.organizationIds[0];
    return (await this.acting.getSubOrgIds(query)).organizationIds[0];
  }
}

const str = v.pipe(v.string(), v.maxLength(16_384));
const optionalStr = v.optional(str);

function activityResult(response: { activity: { result: unknown } }, member: string): Body {
  return ((response.activity.result as Body | null)?.[member] ?? {}) as Body;
}

/** The unverified claims of a JWT: for routing only, the engine verifies the token itself. */
function peekClaims(token: string, field: string): Body {
  const payload = token.split(".")[1];
  const bytes = payload === undefined ? undefined : decodeBase64Url(payload);
  const text = bytes && decodeUtf8Strict(bytes);
  try {
    const claims: unknown = text === undefined ? undefined : JSON.parse(text);
    if (claims && typeof claims === "object") return claims as Body;
  } catch {
    // reported below
  }
  throw new CustodyError("UNAUTHENTICATED", "the token is not a JWT", { field, reason: "VERIFICATION_TOKEN_INVALID" });
}

function otpTypeOf(value: string): string {
  if (value === "OTP_TYPE_EMAIL" || value === "OTP_TYPE_SMS") return value;
  throw invalidArgument("otpType must be OTP_TYPE_EMAIL or OTP_TYPE_SMS", "otpType");
}

const initOtpRequest = v.object({ otpType: str, contact: str });

async function initOtp(proxy: AuthProxy, body: Body, withTarget: boolean): Promise<Body> {
  const request = parseWith(initOtpRequest, body, "");
  const otpType = otpTypeOf(request.otpType);
  proxy.assertEnabled(otpType === "OTP_TYPE_SMS" ? "sms" : "email");
  const { otpLength, otpAlphanumeric, appName } = proxy.options;
  const response = await proxy.acting.initOtp({
    organizationId: proxy.organizationId,
    parameters: {
      otpType,
      contact: request.contact,
      appName: appName ?? "custodian",
      ...(otpLength === undefined ? {} : { otpLength }),
      ...(otpAlphanumeric === undefined ? {} : { alphanumeric: otpAlphanumeric }),
    },
  });
  const result = activityResult(response, "initOtpResultV2");
  return withTarget ? result : { otpId: result.otpId };
}

const verifyOtpV1 = v.object({ otpId: str, otpCode: str, publicKey: optionalStr });
const verifyOtpV2 = v.object({ otpId: str, encryptedOtpBundle: str });

async function verifyOtp(proxy: AuthProxy, body: Body, version: 1 | 2): Promise<Body> {
  const parameters = version === 1 ? parseWith(verifyOtpV1, body, "") : parseWith(verifyOtpV2, body, "");
  const response = await proxy.acting.verifyOtp({
    type: version === 1 ? "ACTIVITY_TYPE_VERIFY_OTP" : "ACTIVITY_TYPE_VERIFY_OTP_V2",
    organizationId: proxy.organizationId,
    parameters,
  } as Parameters<CustodyEngine["verifyOtp"]>[0]);
  return { verificationToken: activityResult(response, "verifyOtpResult").verificationToken };
}

const clientSignature = v.optional(v.record(v.string(), v.unknown()));
const otpLoginRequest = v.object({
  verificationToken: str,
  publicKey: str,
  invalidateExisting: v.optional(v.boolean()),
  organizationId: optionalStr,
  clientSignature,
});

async function otpLogin(proxy: AuthProxy, body: Body, version: 1 | 2): Promise<Body> {
  const request = parseWith(otpLoginRequest, body, "");
  const claims = peekClaims(request.verificationToken, "verificationToken");
  const organizationId =
    request.organizationId ??
    (await proxy.subOrganizationByContact(String(claims.verification_type), String(claims.contact)));
  if (organizationId === undefined) {
    throw new CustodyError("NOT_FOUND", "no account holds the contact this verification token verified", {
      field: "verificationToken",
      reason: "ACCOUNT_NOT_FOUND",
    });
  }
  const response = await proxy.acting.otpLogin({
    type: version === 1 ? "ACTIVITY_TYPE_OTP_LOGIN" : "ACTIVITY_TYPE_OTP_LOGIN_V2",
    organizationId,
    parameters: {
      verificationToken: request.verificationToken,
      publicKey: request.publicKey,
      ...(request.invalidateExisting === undefined ? {} : { invalidateExisting: request.invalidateExisting }),
      ...(request.clientSignature === undefined ? {} : { clientSignature: request.clientSignature }),
      expirationSeconds: proxy.options.sessionExpirationSeconds ?? "900",
    },
  } as Parameters<CustodyEngine["otpLogin"]>[0]);
  return { session: activityResult(response, "otpLoginResult").session };
}

const oauthLoginRequest = v.object({
  oidcToken: str,
  publicKey: str,
  invalidateExisting: v.optional(v.boolean()),
  organizationId: optionalStr,
});

async function oauthLogin(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(oauthLoginRequest, body, "");
  const organizationId =
    request.organizationId ??
    (
      await proxy.acting.getSubOrgIds({
        organizationId: proxy.organizationId,
        filterType: "OIDC_TOKEN",
        filterValue: request.oidcToken,
      })
    ).organizationIds[0];
  if (organizationId === undefined) {
    throw new CustodyError("NOT_FOUND", "no account has an OAuth provider for this token", {
      field: "oidcToken",
      reason: "ACCOUNT_NOT_FOUND",
    });
  }
  const response = await proxy.acting.oauthLogin({
    organizationId,
    parameters: {
      oidcToken: request.oidcToken,
      publicKey: request.publicKey,
      ...(request.invalidateExisting === undefined ? {} : { invalidateExisting: request.invalidateExisting }),
      expirationSeconds: proxy.options.sessionExpirationSeconds ?? "900",
    },
  });
  return { session: activityResult(response, "oauthLoginResult").session };
}

const accountRequest = v.object({
  filterType: str,
  filterValue: str,
  verificationToken: optionalStr,
  oidcToken: optionalStr,
});

const ACCOUNT_FILTERS = ["NAME", "USERNAME", "EMAIL", "PHONE_NUMBER", "PUBLIC_KEY", "CREDENTIAL_ID", "OIDC_TOKEN"];

async function account(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(accountRequest, body, "");
  if (!ACCOUNT_FILTERS.includes(request.filterType)) {
    throw invalidArgument(`filterType must be one of ${ACCOUNT_FILTERS.join(", ")}`, "filterType");
  }
  let organizationId: string | undefined;
  if (request.filterType === "EMAIL" || request.filterType === "PHONE_NUMBER") {
    // Contacts are personal data: only someone who proved the contact may learn which account holds it.
    if (request.verificationToken === undefined) {
      throw invalidArgument("looking an account up by email or phone needs a verificationToken", "verificationToken");
    }
    const claims = await proxy.engine.verifyVerificationToken(request.verificationToken);
    const otpType = request.filterType === "EMAIL" ? "OTP_TYPE_EMAIL" : "OTP_TYPE_SMS";
    const same =
      claims.verification_type === otpType &&
      (otpType === "OTP_TYPE_EMAIL"
        ? claims.contact.toLowerCase() === request.filterValue.toLowerCase()
        : claims.contact === request.filterValue);
    if (!same) {
      throw new CustodyError("PERMISSION_DENIED", "the verification token is for another contact", {
        field: "verificationToken",
        reason: "VERIFICATION_TOKEN_CONTACT_MISMATCH",
      });
    }
    organizationId = await proxy.subOrganizationByContact(otpType, request.filterValue);
  } else {
    const { organizationIds } = await proxy.acting.getSubOrgIds({
      organizationId: proxy.organizationId,
      filterType: request.filterType as "NAME",
      filterValue: request.filterValue,
    });
    organizationId = organizationIds[0];
  }
  // proto3 JSON leaves an unset string out: the kits read a missing organizationId as "sign up".
  return organizationId === undefined ? {} : { organizationId };
}

const signupRequest = v.object({
  userEmail: optionalStr,
  userPhoneNumber: optionalStr,
  userTag: optionalStr,
  userName: optionalStr,
  organizationName: optionalStr,
  verificationToken: optionalStr,
  apiKeys: v.array(v.unknown()),
  authenticators: v.array(v.unknown()),
  oauthProviders: v.array(v.unknown()),
  wallet: v.optional(v.unknown()),
  clientSignature,
});

async function signup(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(signupRequest, body, "");
  if (request.userEmail !== undefined) proxy.assertEnabled("email");
  if (request.userPhoneNumber !== undefined) proxy.assertEnabled("sms");
  if ((request.userEmail !== undefined || request.userPhoneNumber !== undefined) && !request.verificationToken) {
    throw invalidArgument(
      "signing up with an email address or phone number needs the verificationToken that proves it",
      "verificationToken",
    );
  }
  const userName = request.userName ?? request.userEmail ?? request.userPhoneNumber ?? "user";
  const response = await proxy.acting.createSubOrganization({
    organizationId: proxy.organizationId,
    parameters: {
      subOrganizationName: request.organizationName ?? userName,
      rootUsers: [
        {
          userName,
          ...(request.userEmail === undefined ? {} : { userEmail: request.userEmail }),
          ...(request.userPhoneNumber === undefined ? {} : { userPhoneNumber: request.userPhoneNumber }),
          apiKeys: request.apiKeys,
          authenticators: request.authenticators,
          oauthProviders: request.oauthProviders,
        },
      ],
      rootQuorumThreshold: 1,
      ...(request.wallet === undefined ? {} : { wallet: request.wallet }),
      ...(request.verificationToken === undefined ? {} : { verificationToken: request.verificationToken }),
      ...(request.clientSignature === undefined ? {} : { clientSignature: request.clientSignature }),
    },
  } as Parameters<CustodyEngine["createSubOrganization"]>[0]);
  const result = activityResult(response, "createSubOrganizationResultV8");
  return {
    organizationId: result.subOrganizationId,
    userId: (result.rootUserIds as string[])[0],
    ...(result.wallet === undefined ? {} : { wallet: result.wallet }),
    appProofs: [],
  };
}

async function walletKitConfig(proxy: AuthProxy): Promise<Body> {
  const { options } = proxy;
  return {
    enabledProviders: [...(options.enabledProviders ?? DEFAULT_PROVIDERS)],
    sessionExpirationSeconds: options.sessionExpirationSeconds ?? "900",
    organizationId: options.organizationId,
    oauthClientIds: { ...options.oauthClientIds },
    ...(options.oauthRedirectUrl === undefined ? {} : { oauthRedirectUrl: options.oauthRedirectUrl }),
    otpAlphanumeric: options.otpAlphanumeric ?? true,
    otpLength: String(options.otpLength ?? 9),
  };
}

const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  account,
  oauth2_authenticate: async () => {
    throw new CustodyError(
      "FAILED_PRECONDITION",
      "oauth2_authenticate exchanges codes with an OAuth 2.0 provider's servers, which custodian does not reach: use an OIDC provider and oauth_login",
      { reason: "OAUTH2_NOT_SUPPORTED" },
    );
  },
  oauth_login: oauthLogin,
  otp_init: (proxy, body) => initOtp(proxy, body, false),
  otp_init_v2: (proxy, body) => initOtp(proxy, body, true),
  otp_login: (proxy, body) => otpLogin(proxy, body, 1),
  otp_login_v2: (proxy, body) => otpLogin(proxy, body, 2),
  otp_verify: (proxy, body) => verifyOtp(proxy, body, 1),
  otp_verify_v2: (proxy, body) => verifyOtp(proxy, body, 2),
  signup,
  signup_v2: signup,
  wallet_kit_client_params: async () => ({}),
  wallet_kit_config: walletKitConfig,
};

/** The auth-proxy paths this handler serves (`/v1/signup`, ...). */
export const AUTH_PROXY_PATHS: readonly string[] = Object.keys(ENDPOINTS).map((name) => `${PREFIX}${name}`);

interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function json(status: number, body: unknown, headers: Record<string, string>): ProxyResponse {
  return { status, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

function failure(error: CustodyError, headers: Record<string, string>, status = error.httpStatus): ProxyResponse {
  return json(status, error.toRpcStatus(), headers);
}

async function answer(
  proxy: AuthProxy,
  method: string,
  path: string,
  headers: IncomingMessage["headers"],
  read: () => Promise<Uint8Array | null>,
): Promise<ProxyResponse> {
  const origin = headers.origin;
  const allowed = proxy.options.allowedOrigins ?? "*";
  if (origin !== undefined && allowed !== "*" && !allowed.includes(origin)) {
    return failure(
      new CustodyError("PERMISSION_DENIED", "this origin is not allowed", { reason: "ORIGIN_NOT_ALLOWED" }),
      {},
    );
  }
  const cors: Record<string, string> =
    origin === undefined ? {} : { "access-control-allow-origin": allowed === "*" ? "*" : origin, vary: "Origin" };
  if (method === "OPTIONS") {
    return {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": ALLOWED_HEADERS,
      },
      body: "",
    };
  }
  const endpoint = ENDPOINTS[path.slice(PREFIX.length)];
  if (!endpoint) return failure(new CustodyError("NOT_FOUND", `no auth proxy endpoint at ${path}`), cors, 404);
  if (method !== "POST") {
    return failure(
      new CustodyError("INVALID_ARGUMENT", `${method} is not allowed here; use POST`),
      { ...cors, allow: "POST, OPTIONS" },
      405,
    );
  }
  try {
    const configId = proxy.options.configId;
    if (configId !== undefined && headers["x-auth-proxy-config-id"] !== configId) {
      throw new CustodyError("UNAUTHENTICATED", "X-Auth-Proxy-Config-ID does not name this auth proxy", {
        reason: "AUTH_PROXY_CONFIG_MISMATCH",
      });
    }
    const bytes = await read();
    if (bytes === null)
      throw new CustodyError("INVALID_ARGUMENT", "the request body is too large", { reason: "BODY_TOO_LARGE" });
    const text = decodeUtf8Strict(bytes);
    let body: unknown;
    try {
      body = text === undefined || text === "" ? {} : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new CustodyError("INVALID_ARGUMENT", "the request body must be a JSON object", {
        reason: "REQUEST_INVALID",
      });
    }
    return json(200, await endpoint(proxy, body as Body), cors);
  } catch (error) {
    if (isCustodyError(error)) return failure(error, cors);
    proxy.options.onError?.(error);
    return failure(new CustodyError("INTERNAL", "internal error"), cors, 500);
  }
}

/**
 * Serves the Auth Proxy API on a node server at `/v1/*` (point the kit's `authProxyUrl` at the server);
 * other paths go to `next` (or get 404 without one).
 */
export function createAuthProxyHandler(engine: CustodyEngine, options: AuthProxyOptions): NodeHttpHandler {
  const proxy = new AuthProxy(engine, options);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req: IncomingMessage, res: ServerResponse, next) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (!path.startsWith(PREFIX)) {
      if (next) next();
      else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify(new CustodyError("NOT_FOUND", `no auth proxy endpoint at ${path}`).toRpcStatus()));
      }
      return;
    }
    // A client that went away reads as no body: its answer (a 413) reaches no one.
    const read = async () => {
      const outcome = await readBody(req, limit);
      return "disconnected" in outcome ? null : outcome.body;
    };
    answer(proxy, req.method ?? "GET", path, req.headers, read)
      .then((response) => {
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      })
      .catch((error: unknown) => {
        options.onError?.(error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 13, message: "internal error", details: [] }));
      });
  };
}
