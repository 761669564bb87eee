/**
 * `custodian serve --rp-id --origin`: the dev server's relying party, exercised with the official clients.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterEach, describe, expect, it } from "vitest";
import { startDevServer } from "../support/dev-server.js";
import { passkeyParams } from "../support/signers.js";
import { installNavigatorCredentials, SoftwareAuthenticator } from "../support/software-authenticator.js";

let running: ChildProcess | undefined;
let uninstall: (() => void) | undefined;
afterEach(async () => {
  uninstall?.();
  uninstall = undefined;
  if (running && running.exitCode === null) {
    const exited = new Promise((resolve) => running?.once("exit", resolve));
    running.kill("SIGINT");
    await exited;
  }
  running = undefined;
});

describe("custodian serve --rp-id --origin", () => {
  it("registers and authenticates passkeys of the given relying party and origins only", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = startDevServer([
      "--port",
      "0",
      "--data",
      data,
      "--rp-id",
      "wallet.example",
      "--origin",
      "https://wallet.example",
      "--origin",
      "https://app.wallet.example",
    ]);
    running = server.child;
    const baseUrl = await server.ready;
    const credentials = JSON.parse(readFileSync(join(data, "root-api-key.json"), "utf8")) as Record<string, string>;
    const organizationId = credentials.organizationId as string;
    const root = new TurnkeyClient(
      { baseUrl },
      new ApiKeyStamper({
        apiPublicKey: credentials.apiPublicKey as string,
        apiPrivateKey: credentials.apiPrivateKey as string,
      }),
    );
    const register = (authenticator: SoftwareAuthenticator, origin: string, rpId = "wallet.example") =>
      root.createAuthenticators({
        type: "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2",
        timestampMs: String(Date.now()),
        organizationId,
        parameters: {
          userId: credentials.userId as string,
          authenticators: [passkeyParams(authenticator, { rpId, origin })],
        },
      });

    const authenticator = new SoftwareAuthenticator();
    expect((await register(authenticator, "https://app.wallet.example")).activity.status).toBe(
      "ACTIVITY_STATUS_COMPLETED",
    );
    await expect(register(new SoftwareAuthenticator(), "http://localhost")).rejects.toBeInstanceOf(TurnkeyRequestError);
    await expect(register(new SoftwareAuthenticator(), "https://wallet.example", "localhost")).rejects.toBeInstanceOf(
      TurnkeyRequestError,
    );

    uninstall = installNavigatorCredentials(authenticator, "https://wallet.example");
    const passkey = new TurnkeyClient({ baseUrl }, new WebauthnStamper({ rpId: "wallet.example" }));
    expect((await passkey.getWhoami({ organizationId })).userId).toBe(credentials.userId);
  });

  it("refuses an origin that is not one, naming the option", async () => {
    const data = mkdtempSync(join(tmpdir(), "custodian-serve-"));
    const server = startDevServer(["--port", "0", "--data", data, "--origin", "https://wallet.example/login"]);
    running = server.child;
    const error = await server.ready.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with 1: custodian: webauthn\.origins\[0\] must be an origin/);
  });
});
