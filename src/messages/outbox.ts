/**
 * Delivery of the email and SMS messages log-in flows send (one-time codes, email-auth links): a port the
 * host plugs its mail or SMS service into (the `messageSender` engine option), and the in-memory outbox the
 * engine uses when none is given, where tests and the dev server read what would have been sent, the way
 * MailHog serves a development mail server. Nothing is ever sent over the network by the engine itself.
 *
 * @module
 */

/** `email` or `sms`. */
export type MessageChannel = "email" | "sms";

/** One message the engine asks to have delivered. */
export interface OutgoingMessage {
  channel: MessageChannel;
  /** The email address or E.164 phone number. */
  to: string;
  /** The organization the flow runs in. */
  organizationId: string;
  /** Email subject (empty for SMS). */
  subject: string;
  /** The message text as a person would read it. */
  text: string;
  /** The one-time code, for `init_otp` and `init_otp_auth` messages. */
  otpCode?: string;
  /** The credential bundle, for `email_auth` messages (the magic link's payload). */
  credentialBundle?: string;
}

/** A message as the in-memory outbox keeps it. */
export interface OutboxMessage extends OutgoingMessage {
  /** Increasing from 1 within one outbox. */
  id: number;
  /** When the engine handed it over (engine clock, ms). */
  sentAtMs: number;
}

/**
 * Where the engine hands messages. `send` is called inside the activity that sends (at the end of its
 * handler); a sender that throws fails that activity. It must not log the codes it carries.
 */
export interface MessageSender {
  /** Delivers one message (an email or an SMS), sent at `sentAtMs` by the engine's clock. */
  send(message: OutgoingMessage, sentAtMs: number): Promise<void>;
}

/** Options of {@link MemoryOutbox}. */
export interface MemoryOutboxOptions {
  /** How many messages are kept, oldest dropped first. Default 1000. */
  capacity?: number;
  /** Told about each message as it arrives (the dev server prints codes with it). */
  onMessage?: (message: OutboxMessage) => void;
}

/** The default sender: keeps messages in memory for {@link CustodyEngine.outbox}. */
export class MemoryOutbox implements MessageSender {
  readonly #messages: OutboxMessage[] = [];
  readonly #capacity: number;
  readonly #onMessage: ((message: OutboxMessage) => void) | undefined;
  #nextId = 1;

  /** An empty outbox keeping at most `capacity` messages (default 1,000), oldest dropped first. */
  constructor(options: MemoryOutboxOptions = {}) {
    this.#capacity = options.capacity ?? 1000;
    this.#onMessage = options.onMessage;
  }

  /** Keeps `message` (numbered in order of sending) and tells `onMessage`, if given. */
  async send(message: OutgoingMessage, sentAtMs: number): Promise<void> {
    const kept: OutboxMessage = { ...message, id: this.#nextId++, sentAtMs };
    this.#messages.push(kept);
    if (this.#messages.length > this.#capacity) this.#messages.shift();
    this.#onMessage?.(kept);
  }

  /** Messages kept, oldest first; optionally only those sent to `to`. Copies: callers cannot alter the outbox. */
  messages(to?: string): OutboxMessage[] {
    return this.#messages.filter((message) => to === undefined || message.to === to).map((message) => ({ ...message }));
  }
}
