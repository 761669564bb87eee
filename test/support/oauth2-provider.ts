/**
 * A local fake of an OAuth 2.0 provider's token endpoint (node:http on 127.0.0.1) for one registered client: it
 * exchanges the codes a test grants for id tokens signed by a local OIDC issuer, and can misbehave on demand.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestIssuer } from "./oidc.js";

/** The client the provider registered: the token endpoint checks each exchange against it. */
export interface OAuth2Client {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** What the fake provider issued a code for, as an authorization request would have set it up. */
export interface Grant {
  sub: string;
  nonce: string;
  codeVerifier: string;
}

export type Mode = "normal" | "oversized" | "endless" | "failing";

/** A token endpoint as RFC 6749 §4.1.3 describes it, checking the client's Basic credentials. */
export class FakeTokenEndpoint {
  readonly grants = new Map<string, Grant>();
  readonly requests: { authorization: string | undefined; body: URLSearchParams }[] = [];
  mode: Mode = "normal";
  readonly #server = createServer((req, res) => void this.#answer(req, res));
  readonly #open = new Set<ServerResponse>();

  constructor(
    private readonly issuer: TestIssuer,
    private readonly client: OAuth2Client,
  ) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/oauth2/token`;
  }

  async close(): Promise<void> {
    for (const res of this.#open) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = new URLSearchParams(text);
    this.requests.push({ authorization: req.headers.authorization, body });
    if (this.mode === "oversized") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id_token: "x".repeat(200_000) }));
      return;
    }
    if (this.mode === "endless") {
      this.#open.add(res);
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id_token":"');
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write("x")), 10);
      res.on("close", () => clearInterval(drip));
      return;
    }
    if (this.mode === "failing") {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "temporarily_unavailable" }));
      return;
    }
    const expected = `Basic ${Buffer.from(`${this.client.clientId}:${this.client.clientSecret}`).toString("base64")}`;
    const grant = this.grants.get(body.get("code") ?? "");
    const refuse = (status: number, error: string) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error }));
    };
    if (req.headers.authorization !== expected) return refuse(401, "invalid_client");
    if (
      body.get("grant_type") !== "authorization_code" ||
      grant === undefined ||
      body.get("code_verifier") !== grant.codeVerifier ||
      body.get("redirect_uri") !== this.client.redirectUri
    ) {
      return refuse(400, "invalid_grant");
    }
    this.grants.delete(body.get("code") as string);
    const idToken = await this.issuer.token({
      sub: grant.sub,
      aud: this.client.clientId,
      extra: { nonce: grant.nonce },
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ access_token: "at-1", token_type: "Bearer", expires_in: 3600, id_token: idToken }));
  }
}
