/**
 * A local OIDC issuer for tests: a real signing key pair (jose `generateKeyPair`), its JWKS, and ID tokens
 * signed with `SignJWT`, so registration is checked against genuine signatures rather than mocks.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JSONWebKeySet, type JWTPayload, SignJWT, UnsecuredJWT } from "jose";

export interface TokenClaims {
  sub?: string;
  aud?: string | string[];
  iss?: string;
  /** Seconds since the epoch; default one hour after `nowMs`. */
  exp?: number;
  nowMs?: number;
  extra?: JWTPayload;
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

/** An issuer with one signing key. */
export class TestIssuer {
  private constructor(
    readonly issuer: string,
    readonly kid: string,
    readonly alg: string,
    private readonly privateKey: SigningKey,
    readonly jwks: JSONWebKeySet,
  ) {}

  /** A new issuer named `issuer`, signing with `alg` (RS256 or ES256). */
  static async create(issuer = "https://issuer.test", alg: "RS256" | "ES256" = "RS256"): Promise<TestIssuer> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = `${alg.toLowerCase()}-${Math.random().toString(36).slice(2, 10)}`;
    const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
    return new TestIssuer(issuer, kid, alg, privateKey, { keys: [jwk] });
  }

  /** An ID token signed by this issuer. */
  async token(claims: TokenClaims = {}): Promise<string> {
    const nowSeconds = Math.floor((claims.nowMs ?? Date.now()) / 1000);
    return new SignJWT({ ...claims.extra })
      .setProtectedHeader({ alg: this.alg, kid: this.kid, typ: "JWT" })
      .setIssuer(claims.iss ?? this.issuer)
      .setSubject(claims.sub ?? "subject-1")
      .setAudience(claims.aud ?? "client-1")
      .setIssuedAt(nowSeconds)
      .setExpirationTime(claims.exp ?? nowSeconds + 3600)
      .sign(this.privateKey);
  }

  /** The same claims with `alg: none` and no signature. */
  unsignedToken(claims: TokenClaims = {}): string {
    const nowSeconds = Math.floor((claims.nowMs ?? Date.now()) / 1000);
    return new UnsecuredJWT({ ...claims.extra })
      .setIssuer(claims.iss ?? this.issuer)
      .setSubject(claims.sub ?? "subject-1")
      .setAudience(claims.aud ?? "client-1")
      .setExpirationTime(claims.exp ?? nowSeconds + 3600)
      .encode();
  }
}

/** Serves `jwks` over HTTP on loopback, counting fetches; `status` lets a test make it fail. */
export async function serveJwks(jwks: JSONWebKeySet) {
  const state = { status: 200, fetches: 0 };
  const server = createServer((_req, res) => {
    state.fetches++;
    res.writeHead(state.status, { "content-type": "application/json" });
    res.end(JSON.stringify(state.status === 200 ? jwks : { error: "unavailable" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/jwks.json`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An OIDC provider on loopback for browser log-ins: its key set at `/jwks.json` and an authorization endpoint
 * (`/authorize`) that signs `subject` in at once and sends the browser back to `redirect_uri` with an ID token
 * in the fragment (the implicit flow, `response_type=id_token`), issued to `client_id` and carrying `nonce`.
 * `subject` may be changed between log-ins; `issued` lists the tokens handed out.
 */
export async function startOidcProvider(subject = "subject-1") {
  const state = { subject, issued: [] as string[] };
  let issuer: TestIssuer | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://provider.invalid");
    if (url.pathname === "/jwks.json" && issuer) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(issuer.jwks));
      return;
    }
    const redirect = url.searchParams.get("redirect_uri");
    const clientId = url.searchParams.get("client_id");
    const nonce = url.searchParams.get("nonce");
    if (url.pathname !== "/authorize" || !issuer || !redirect || !clientId || !nonce) {
      res.writeHead(400, { "content-type": "text/plain" }).end("unknown request");
      return;
    }
    void issuer.token({ sub: state.subject, aud: clientId, extra: { nonce } }).then((token) => {
      state.issued.push(token);
      const fragment = new URLSearchParams({ id_token: token, state: url.searchParams.get("state") ?? "" });
      res.writeHead(302, { location: `${redirect}#${fragment}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = await TestIssuer.create(origin, "ES256");
  return {
    state,
    issuer: origin,
    jwksUri: `${origin}/jwks.json`,
    authorizeUrl: `${origin}/authorize`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
