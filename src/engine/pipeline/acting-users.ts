/**
 * The organization of each user an in-process caller has acted as (`engine.as({ userId })`), as far as this engine
 * has read it. A user never changes organization, so what is learned stays true; an activity then needs no read
 * of its own to name its principal, and the user's existence is checked in the activity's transaction, with the
 * reads it makes anyway (see `submit.ts`). A user not seen yet, or forgotten, is read first, as before.
 *
 * @module
 */
import { CustodyError } from "../../common/errors.js";

/** Users remembered at most; past it the oldest learned is forgotten. */
const REMEMBERED = 100_000;

/** User id → organization id, for the users this engine has read (bounded; see the module comment). */
export class ActingUsers {
  /** User id → the id of its organization. */
  private readonly organizations = new Map<string, string>();

  /** The organization of `userId`, when this engine has read the user. */
  organizationOf(userId: string): string | undefined {
    return this.organizations.get(userId);
  }

  /** Remembers the organization of a user the engine has read. */
  learn(userId: string, organizationId: string): void {
    if (this.organizations.has(userId)) return;
    if (this.organizations.size >= REMEMBERED) {
      const oldest = this.organizations.keys().next();
      if (!oldest.done) this.organizations.delete(oldest.value);
    }
    this.organizations.set(userId, organizationId);
  }
}

/** The refusal of an in-process principal naming a user that does not exist (or not in the organization named). */
export function unknownUser(userId: string): CustodyError {
  return new CustodyError("UNAUTHENTICATED", `unknown user ${userId}`, { reason: "USER_NOT_FOUND" });
}
