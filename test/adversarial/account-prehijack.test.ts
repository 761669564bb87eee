/**
 * Account pre-hijacking through the auth proxy: a stranger stores a victim's email in a sub-organization of
 * their own, hoping the victim's later log-in lands there (and the wallet the victim creates with it). A
 * contact nobody proved is never used to find or log in an account: the proxy's sign-up refuses it, and a
 * copy typed into one's own record is invisible to `account`, `otp_login` and the attested `stamp_login`,
 * which also must not lock the real owner out.
 */
import { parseSession } from "@turnkey/core/dist/utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OtpType, type ProxyServer, startProxyServer } from "../support/auth-proxy.js";
import { post } from "../support/server.js";

const VICTIM = "victim@example.test";
const ATTACKER_PHONE = "+15555550100";

let server: ProxyServer;

beforeAll(async () => {
  server = await startProxyServer();
});

afterAll(async () => {
  await server.close();
});

/** The attacker: signed up with their own phone, then typed the victim's email into their own record. */
async function attackerHoldingVictimEmail() {
  const attacker = server.kit();
  const phone = await server.verifyContact(attacker, OtpType.Sms, ATTACKER_PHONE);
  const { sessionToken } = await attacker.signUpWithOtp({
    verificationToken: phone.verificationToken,
    contact: ATTACKER_PHONE,
    otpType: OtpType.Sms,
  });
  await attacker.updateUserEmail({ email: VICTIM });
  expect((await attacker.fetchUser()).userEmail).toBe(VICTIM);
  return { attacker, organizationId: parseSession(sessionToken).organizationId };
}

describe("a victim's email stored without proof", () => {
  it("is refused at sign-up beside a token that proves another contact", async () => {
    const attacker = server.kit();
    const phone = await server.verifyContact(attacker, OtpType.Sms, "+15555550199");
    const before = await server.root.getSubOrgIds({ organizationId: server.organizationId });
    const outcome = await attacker
      .signUpWithOtp({
        verificationToken: phone.verificationToken,
        contact: "+15555550199",
        otpType: OtpType.Sms,
        createSubOrgParams: { userEmail: "someone-else@example.test" },
      })
      .then(
        () => "signed up",
        (error: { cause?: { message?: string } }) => String(error.cause?.message),
      );
    expect(outcome).toMatch(/names only the contact its verificationToken proves/);
    expect(await server.root.getSubOrgIds({ organizationId: server.organizationId })).toEqual(before);
  });

  it("neither finds nor logs the victim into the attacker's sub-organization, and the victim's own account works", async () => {
    const { attacker, organizationId: attackerOrg } = await attackerHoldingVictimEmail();

    // The victim proves their email: no account holds it verified, so the kit signs them up.
    const victim = server.kit();
    const first = await server.verifyContact(victim, OtpType.Email, VICTIM);
    const lookup = await victim.httpClient.proxyGetAccount({
      filterType: "EMAIL",
      filterValue: VICTIM,
      verificationToken: first.verificationToken,
    });
    expect(lookup.organizationId).toBeUndefined();
    // Nor does a log-in through the proxy, or an attested stamp naming the attacker's organization, land there.
    const viaProxy = await post(
      `${server.baseUrl}/v1/otp_login`,
      JSON.stringify({ verificationToken: first.verificationToken, publicKey: first.publicKey }),
      { "X-Auth-Proxy-Config-ID": "kit-config" },
    );
    expect(viaProxy.status).toBe(404);
    const named = await post(
      `${server.baseUrl}/v1/otp_login`,
      JSON.stringify({
        verificationToken: first.verificationToken,
        publicKey: first.publicKey,
        organizationId: attackerOrg,
      }),
      { "X-Auth-Proxy-Config-ID": "kit-config" },
    );
    expect(named.status).toBe(404);
    await expect(
      victim.loginWithOtp({ verificationToken: first.verificationToken, organizationId: attackerOrg }),
    ).rejects.toThrow();

    const signedUp = await victim.signUpWithOtp({
      verificationToken: first.verificationToken,
      contact: VICTIM,
      otpType: OtpType.Email,
    });
    const victimOrg = parseSession(signedUp.sessionToken).organizationId;
    expect(victimOrg).not.toBe(attackerOrg);
    const walletId = await victim.createWallet({ walletName: "savings", accounts: ["ADDRESS_FORMAT_ETHEREUM"] });

    // Later log-ins, by the kit's attested stamp naming the parent, land in the victim's own account.
    const again = server.kit();
    const second = await server.verifyContact(again, OtpType.Email, VICTIM);
    const found = await again.httpClient.proxyGetAccount({
      filterType: "EMAIL",
      filterValue: VICTIM,
      verificationToken: second.verificationToken,
    });
    expect(found.organizationId).toBe(victimOrg);
    const { sessionToken } = await again.loginWithOtp({ verificationToken: second.verificationToken });
    expect(parseSession(sessionToken).organizationId).toBe(victimOrg);

    // The attacker's key sees none of it.
    expect((await attacker.fetchWallets()).map((wallet) => wallet.walletId)).not.toContain(walletId);
    await expect(attacker.httpClient.getWallets({ organizationId: victimOrg })).rejects.toThrow();
  });

  it("copied after the victim signed up does not lock the victim out of the attested log-in", async () => {
    const owner = "owner@example.test";
    const victim = server.kit();
    const proof = await server.verifyContact(victim, OtpType.Email, owner);
    const { sessionToken } = await victim.signUpWithOtp({
      verificationToken: proof.verificationToken,
      contact: owner,
      otpType: OtpType.Email,
    });
    const ownerOrg = parseSession(sessionToken).organizationId;

    // Two strangers copy the address into their own sub-organizations.
    for (const phone of ["+15555550101", "+15555550102"]) {
      const copier = server.kit();
      const token = await server.verifyContact(copier, OtpType.Sms, phone);
      await copier.signUpWithOtp({ verificationToken: token.verificationToken, contact: phone, otpType: OtpType.Sms });
      await copier.updateUserEmail({ email: owner });
    }

    const later = server.kit();
    const next = await server.verifyContact(later, OtpType.Email, owner);
    const login = await later.loginWithOtp({ verificationToken: next.verificationToken });
    expect(parseSession(login.sessionToken).organizationId).toBe(ownerOrg);
  });
});
