/**
 * `list_email_events` through the engine: a `Send` event per email the outbox kept for the address, in the
 * organization asked about, newest first, paged by event id; no codes or bundles in the events; nothing
 * from a host's own sender (the engine keeps no copy); bad cursors and limits refused.
 */
import { generateP256KeyPair } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import type { MessageSender } from "../../src/index.js";
import { expectCustodyError as refusal } from "../support/custody-error.js";
import { engineWithOrganization } from "../support/engine.js";

const EMAIL = "root@acme.test";

async function sendCodes(root: Awaited<ReturnType<typeof engineWithOrganization>>["root"], organizationId: string) {
  for (const contact of [EMAIL, "other@acme.test", EMAIL.toUpperCase()]) {
    await root.initOtp({ organizationId, parameters: { otpType: "OTP_TYPE_EMAIL", contact, appName: "Demo" } });
  }
  await root.initOtp({
    organizationId,
    parameters: { otpType: "OTP_TYPE_SMS", contact: "+14155550100", appName: "D" },
  });
  await root.emailAuth({
    organizationId,
    parameters: {
      email: EMAIL,
      targetPublicKey: generateP256KeyPair().publicKey,
      emailCustomization: { appName: "D" },
    },
  });
}

describe("list_email_events", () => {
  it("lists a Send event per email to the address, newest first, without their contents", async () => {
    let now = 1_700_000_000_000;
    const { engine, root, organizationId } = await engineWithOrganization({ clock: () => (now += 1000) });
    await sendCodes(root, organizationId);
    const { emailEvents } = await root.listEmailEvents({ organizationId, email: EMAIL });
    const sent = engine.outbox().filter((message) => message.to.toLowerCase() === EMAIL);
    expect(emailEvents).toEqual(
      sent.reverse().map((message) => ({
        id: String(message.id),
        organizationId,
        messageId: String(message.id),
        eventType: "Send",
        fromAddress: "notifications@custodian.invalid",
        toAddress: message.to,
        timestamp: String(message.sentAtMs),
        createdAt: String(message.sentAtMs),
        details: {},
      })),
    );
    expect(emailEvents).toHaveLength(3);
    const secrets = engine.outbox().flatMap((message) => [message.otpCode, message.credentialBundle]);
    for (const secret of secrets) if (secret !== undefined) expect(JSON.stringify(emailEvents)).not.toContain(secret);
    expect((await root.listEmailEvents({ organizationId, email: EMAIL, eventType: "Bounce" })).emailEvents).toEqual([]);
    expect((await root.listEmailEvents({ organizationId, email: EMAIL, eventType: "Send" })).emailEvents).toHaveLength(
      3,
    );
  });

  it("pages by event id and keeps to the organization asked about", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    await sendCodes(root, organizationId);
    const all = (await root.listEmailEvents({ organizationId, email: EMAIL })).emailEvents.map((event) => event.id);
    const first = await root.listEmailEvents({ organizationId, email: EMAIL, paginationOptions: { limit: "2" } });
    expect(first.emailEvents.map((event) => event.id)).toEqual(all.slice(0, 2));
    const older = await root.listEmailEvents({
      organizationId,
      email: EMAIL,
      paginationOptions: { limit: "2", before: all[1] },
    });
    expect(older.emailEvents.map((event) => event.id)).toEqual(all.slice(2));
    const newer = await root.listEmailEvents({ organizationId, email: EMAIL, paginationOptions: { after: all[2] } });
    expect(newer.emailEvents.map((event) => event.id)).toEqual(all.slice(0, 2));

    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: {
        subOrganizationName: "Sub",
        rootUsers: [{ userName: "s", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    });
    const subOrganizationId = (activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string })
      .subOrganizationId;
    expect((await root.listEmailEvents({ organizationId: subOrganizationId, email: EMAIL })).emailEvents).toEqual([]);
    expect(engine.outbox(EMAIL).length).toBeGreaterThan(0);

    for (const paginationOptions of [{ limit: "0" }, { limit: "101" }, { before: "abc" }, { after: "-1" }]) {
      await refusal(root.listEmailEvents({ organizationId, email: EMAIL, paginationOptions }), "INVALID_ARGUMENT");
    }
    await refusal(root.listEmailEvents({ organizationId, email: "" }), "INVALID_ARGUMENT", "email");
  });

  it("lists nothing when the host delivers messages itself", async () => {
    const delivered: string[] = [];
    const messageSender: MessageSender = {
      async send(message) {
        delivered.push(message.to);
      },
    };
    const { root, organizationId } = await engineWithOrganization({ messageSender });
    await sendCodes(root, organizationId);
    expect(delivered).toContain(EMAIL);
    expect((await root.listEmailEvents({ organizationId, email: EMAIL })).emailEvents).toEqual([]);
  });
});
