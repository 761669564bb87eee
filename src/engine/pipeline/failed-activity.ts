/**
 * What a FAILED activity keeps. A failure often means the input was not what it claimed to be: a mnemonic
 * pasted into `encryptedBundle`, a private key where a bundle's ciphertext belongs, a live OIDC token. Such
 * an activity is readable by every member and journaled, so the intent fields made to carry key material
 * or credentials are replaced by a marker before a failure is recorded, wherever it is recorded (at
 * submission, or at a later vote), in the intent and in each vote's copy of the body it stamped. The votes'
 * stamps then no longer verify over their message: a failed activity gives up that proof rather than keep
 * what may be a secret.
 *
 * @module
 */
import type { RpcStatus } from "../../common/errors.js";
import type { ActivityRecord } from "../../model/records.js";

/**
 * Intent members that carry key material or bearer credentials: import bundles (`import_wallet`,
 * `import_private_key`), OIDC tokens (`oauth`, OAuth provider registration) and OTP verification tokens.
 * A successful activity keeps them (they were what they claimed: ciphertext, a verified token); a failed
 * one does not.
 */
export const REDACTED_ON_FAILURE: ReadonlySet<string> = new Set(["encryptedBundle", "oidcToken", "verificationToken"]);

/** What a redacted member reads as. */
export const REDACTED = "<redacted: this activity failed>";

/** Deep enough for every intent; anything deeper is left as it is (schemas bound nesting well below). */
const MAX_DEPTH = 16;

function redact(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const redacted = REDACTED_ON_FAILURE.has(key) && typeof member === "string" ? REDACTED : redact(member, depth + 1);
    // defineProperty, not assignment: a "__proto__" member stays plain data.
    Object.defineProperty(out, key, { value: redacted, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A vote's stamped body with its key-material members redacted; unchanged when it has none. */
function redactMessage(message: string): string {
  let body: unknown;
  try {
    body = JSON.parse(message);
  } catch {
    return message;
  }
  const redacted = JSON.stringify(redact(body, 0));
  return redacted === JSON.stringify(body) ? message : redacted;
}

/** The record of `activity` failed with `failure`: status FAILED, key-material members redacted. */
export function failedActivity(activity: ActivityRecord, failure: RpcStatus): ActivityRecord {
  return {
    ...activity,
    status: "ACTIVITY_STATUS_FAILED",
    failure,
    intent: redact(activity.intent, 0) as Record<string, unknown>,
    votes: activity.votes.map((vote) => ({ ...vote, message: redactMessage(vote.message) })),
  };
}
