/**
 * Account enumeration through the auth proxy's unauthenticated `account` look-up: the kits name users (and
 * their sub-organizations) after their email address, so no filter may tell a caller who has not proved a
 * contact which organization holds it, or whether one does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_ID, OtpType, type ProxyServer, startProxyServer } from "../support/auth-proxy.js";
import { post } from "../support/server.js";

const VICTIM = "listed@example.test";

let server: ProxyServer;

beforeAll(async () => {
  server = await startProxyServer();
  // The victim signs up the way the kit does: user and sub-organization named after the email address.
  const tk = server.kit();
  const { verificationToken } = await server.verifyContact(tk, OtpType.Email, VICTIM);
  await tk.signUpWithOtp({
    verificationToken,
    contact: VICTIM,
    otpType: OtpType.Email,
    createSubOrgParams: { subOrgName: VICTIM },
  });
});

afterAll(async () => {
  await server.close();
});

const lookUp = (body: Record<string, unknown>) =>
  post(`${server.baseUrl}/v1/account`, JSON.stringify(body), { "X-Auth-Proxy-Config-ID": CONFIG_ID });

describe("the proxy's account look-up", () => {
  it("answers no organization for a name or user name that carries an email address", async () => {
    for (const filterType of ["USERNAME", "NAME"]) {
      const response = await lookUp({ filterType, filterValue: VICTIM });
      expect(response.status).toBe(400);
      expect(response.json?.organizationId).toBeUndefined();
      expect(response.text).toContain("filterType");
    }
  });

  it("answers by email or phone only to the holder of a token for that very contact", async () => {
    expect((await lookUp({ filterType: "EMAIL", filterValue: VICTIM })).status).toBe(400);
    const tk = server.kit();
    const other = await server.verifyContact(tk, OtpType.Email, "curious@example.test");
    const mismatch = await lookUp({
      filterType: "EMAIL",
      filterValue: VICTIM,
      verificationToken: other.verificationToken,
    });
    expect(mismatch.status).toBe(403);
    expect(mismatch.json?.organizationId).toBeUndefined();
  });

  it("gives a forged token naming a contact the same answer whether or not the contact has an account", async () => {
    const claims = (contact: string) =>
      Buffer.from(
        JSON.stringify({
          id: "forged",
          verification_type: "OTP_TYPE_EMAIL",
          contact,
          organization_id: server.organizationId,
          public_key: "",
          exp: String(Date.now() + 60_000),
        }),
      ).toString("base64url");
    const answers = [];
    for (const contact of [VICTIM, "nobody@example.test"]) {
      const token = `eyJhbGciOiJFUzI1NiJ9.${claims(contact)}.c2lnbmF0dXJl`;
      const login = await post(
        `${server.baseUrl}/v1/otp_login`,
        JSON.stringify({ verificationToken: token, publicKey: "02".padEnd(66, "1") }),
        { "X-Auth-Proxy-Config-ID": CONFIG_ID },
      );
      const lookup = await lookUp({ filterType: "EMAIL", filterValue: contact, verificationToken: token });
      answers.push([login.status, login.json?.message, lookup.status, lookup.json?.message]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[0]).toBe(401);
  });
});
