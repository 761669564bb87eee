/**
 * `list_email_events`: what happened to the emails the engine sent an address. The hosted service reports its
 * mail provider's events (Send, Delivery, Bounce, ...); custodian hands messages to the host's sender and hears
 * nothing back, so the events it knows are the `Send` of each email the in-memory outbox kept, newest first.
 * With a sender of the host's own (the `messageSender` option) the engine keeps no copy, and the list is empty.
 *
 * @module
 */
import * as v from "valibot";
import { defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, withoutNul } from "../contract/schema.js";
import { MemoryOutbox, type OutboxMessage } from "../messages/outbox.js";

/** The one event custodian observes: the engine handed the message over. */
const SEND_EVENT = "Send";
/** The sender address of the engine's messages (the flows accept `sendFromEmailAddress` without using it). */
export const EMAIL_FROM_ADDRESS = "notifications@custodian.invalid";

/** A cursor: an event id, the decimal number the outbox gave the message. */
const cursor = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/, "must be an email event id"), v.transform(Number));

export const listEmailEvents = defineQuery({
  method: "listEmailEvents",
  path: "list_email_events",
  request: v.object({
    organizationId: id,
    email: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(320), withoutNul),
    eventType: v.optional(v.pipe(v.string(), v.maxLength(64))),
    paginationOptions: v.optional(
      v.object({
        limit: v.optional(
          v.pipe(
            v.union([v.string(), v.number()]),
            v.transform(Number),
            v.number(),
            v.integer("must be between 1 and 100"),
            v.minValue(1, "must be between 1 and 100"),
            v.maxValue(100, "must be between 1 and 100"),
          ),
        ),
        before: v.optional(cursor),
        after: v.optional(cursor),
      }),
    ),
  }),
  async handler(context, request) {
    const { services, organization } = context;
    const limit = request.paginationOptions?.limit ?? DEFAULT_PAGE_SIZE;
    const { before, after } = request.paginationOptions ?? {};
    if (!(services.messages instanceof MemoryOutbox) || (request.eventType && request.eventType !== SEND_EVENT)) {
      return { emailEvents: [] };
    }
    const address = request.email.toLowerCase();
    const sent = services.messages
      .messages()
      .filter(
        (message) =>
          message.channel === "email" &&
          message.organizationId === organization.id &&
          message.to.toLowerCase() === address &&
          (before === undefined || message.id < before) &&
          (after === undefined || message.id > after),
      );
    // Newest first; `after` alone pages towards newer events: the ones just past the cursor.
    const page = after !== undefined && before === undefined ? sent.slice(0, limit) : sent.slice(-limit);
    return { emailEvents: page.reverse().map(renderEmailEvent) };
  },
});

/** `v1EmailEvent` of a message the outbox kept. Its contents (codes, bundles) are not part of the event. */
function renderEmailEvent(message: OutboxMessage) {
  const at = String(message.sentAtMs);
  return {
    id: String(message.id),
    organizationId: message.organizationId,
    messageId: String(message.id),
    eventType: SEND_EVENT,
    fromAddress: EMAIL_FROM_ADDRESS,
    toAddress: message.to,
    timestamp: at,
    createdAt: at,
    details: {},
  };
}
