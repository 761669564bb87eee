/**
 * Each receiving organization's share of a dispatcher's delivery slots. An attempt at a receiver that never
 * answers holds its slot until the attempt deadline, so slots handed out in queue order let one organization
 * with slow receivers fill them all. Capping what one organization holds at once, and giving each free slot
 * to the waiting organization that holds the fewest, keeps slow receivers from delaying anyone but their own
 * organization: another organization's due delivery waits only for a slot that is free or about to be.
 *
 * @module
 */

export class SlotShares {
  readonly #held = new Map<string, number>();

  /** `perOrganization`: the most slots one organization holds at once. */
  constructor(readonly perOrganization: number) {}

  /** Slots `organizationId` holds now. */
  held(organizationId: string): number {
    return this.#held.get(organizationId) ?? 0;
  }

  /** Slots `organizationId` may still take. */
  room(organizationId: string): number {
    return this.perOrganization - this.held(organizationId);
  }

  take(organizationId: string): void {
    this.#held.set(organizationId, this.held(organizationId) + 1);
  }

  give(organizationId: string): void {
    const held = this.held(organizationId) - 1;
    if (held > 0) this.#held.set(organizationId, held);
    else this.#held.delete(organizationId);
  }

  /**
   * The index, in `waiting` (organizations with deliveries due, longest waiting first), of the one that gets
   * the next free slot: the one holding the fewest slots, the longest waiting of those on a tie.
   */
  next(waiting: readonly string[]): number {
    let best = 0;
    for (let index = 1; index < waiting.length; index++) {
      if (this.held(waiting[index] as string) < this.held(waiting[best] as string)) best = index;
    }
    return best;
  }
}
