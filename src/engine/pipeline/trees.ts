/**
 * Which organization tree an organization belongs to, as far as this engine has seen: the partition a write
 * transaction names to its store (`TransactionOptions.partition`), so that writes of different trees may run
 * at once. A tree is a top-level organization and its sub-organizations (these have none of their own), and an
 * organization never changes its parent, so what is learned stays true; an organization not seen yet, or
 * forgotten, gets no partition and its write runs alone, which is slower, never wrong.
 *
 * @module
 */
import type { OrganizationRecord } from "../../model/records.js";
import type { TransactionOptions } from "../../storage/store.js";

/** Organizations remembered at most; past it the oldest learned is forgotten. */
const REMEMBERED = 100_000;

export class OrganizationTrees {
  /** Organization id → the id of its top-level organization. */
  private readonly roots = new Map<string, string>();

  /** Remembers the tree of an organization the engine has read. */
  learn(organization: Pick<OrganizationRecord, "id" | "parentOrganizationId">): void {
    if (this.roots.has(organization.id)) return;
    if (this.roots.size >= REMEMBERED) {
      const oldest = this.roots.keys().next();
      if (!oldest.done) this.roots.delete(oldest.value);
    }
    this.roots.set(organization.id, organization.parentOrganizationId ?? organization.id);
  }

  /** The options of a write in the tree of the first of these organizations whose tree is known. */
  transactionOptions(...organizationIds: string[]): TransactionOptions {
    for (const organizationId of organizationIds) {
      const root = this.roots.get(organizationId);
      if (root !== undefined) return { partition: root };
    }
    return {};
  }
}
