/**
 * Why custodian does not serve an operation of the hosted API: the groups the 501 answer and the table in
 * `docs/operations.md` name. Most are integrations of the hosted service with services of its own or of its
 * partners, which a local engine cannot honestly stand in for.
 *
 * @module
 */

/** A group of unserved operations and the reason, in one sentence a 501 answer can carry. */
export interface UnservedGroup {
  /** A short name for the group, e.g. `verifiable cloud apps (TVC)`. */
  readonly name: string;
  /** Why custodian does not serve it. */
  readonly why: string;
}

const GROUPS: readonly (UnservedGroup & { readonly matches: RegExp })[] = [
  {
    name: "verifiable cloud apps (TVC)",
    why: "they run applications in the hosted service's enclaves and attest them; custodian runs in no enclave",
    // `get_app_status` is the status of a TVC app, though its path does not say so.
    matches: /tvc|^query\/get_app_status$/,
  },
  {
    name: "earn",
    why: "they move funds into yield vaults through the hosted service's partners on public chains",
    matches: /earn/,
  },
  {
    name: "swaps",
    why: "they quote and execute swaps through the hosted service's swap providers on public chains",
    matches: /swap/,
  },
  {
    name: "fiat on-ramps",
    why: "they hand users to the hosted service's payment partners (on-ramp providers), which a local engine cannot reach",
    matches: /on_ramp|onramp/,
  },
  {
    name: "Spark",
    why: "they sign for the Spark network with the hosted service's operators (FROST), which a local engine cannot reach",
    matches: /spark/,
  },
];

const NOT_YET: UnservedGroup = {
  name: "not served yet",
  why: "custodian does not serve it yet; a local engine could",
};

/** The group of an unserved operation, by its path under `/public/v1/` (e.g. `submit/create_tvc_app`). */
export function unservedGroup(path: string): UnservedGroup {
  const group = GROUPS.find(({ matches }) => matches.test(path));
  return group ? { name: group.name, why: group.why } : NOT_YET;
}
