/**
 * The engine-facing shapes of the policy module: policies, the context an activity is judged in, and the
 * decision with its per-policy evaluation records. Wire enum values (`EFFECT_*`, `OUTCOME_*`) are the
 * swagger's, spelled exactly.
 *
 * @module
 */

/** A policy's effect (swagger `v1Effect`). */
export type Effect = "EFFECT_ALLOW" | "EFFECT_DENY";

/** A policy's outcome for one evaluation (swagger `v1Outcome`). */
export type Outcome =
  | "OUTCOME_ALLOW"
  | "OUTCOME_DENY_EXPLICIT"
  | "OUTCOME_DENY_IMPLICIT"
  | "OUTCOME_REQUIRES_CONSENSUS"
  | "OUTCOME_REJECTED"
  | "OUTCOME_ERROR"
  | "OUTCOME_REQUIRES_AUTHENTICATORS"
  | "OUTCOME_TIME_INACTIVE";

/** The three expression fields of a policy. Each sees its own set of keywords. */
export type PolicyExpressionField = "condition" | "consensus" | "time";

/**
 * A policy as the decision needs it (the expression part of swagger `v1Policy`). An absent, `null` or
 * blank expression means "no constraint": no `condition` applies to every activity, no `consensus` accepts
 * any approver, no `time` is always active.
 */
export interface Policy {
  /** Copied into the evaluation record. */
  policyId?: string;
  /** Copied into the evaluation record. */
  policyName?: string;
  /** What the policy does when it applies. */
  effect: Effect;
  /** Which activities the policy applies to (keywords: `activity`, `eth`, `wallet`, ...). */
  condition?: string | null;
  /** Who must approve (keywords: `approvers`, `credentials`). */
  consensus?: string | null;
  /** When the policy is active (keyword: `time`; `CronSpan`, `Timestamp`). */
  time?: string | null;
}

/**
 * Data reachable from an expression. Integers may be `number` (safe integers only) or `bigint`; a `Date`
 * is a timestamp; `null` and `undefined` read as a missing field.
 */
export type PolicyData =
  | bigint
  | number
  | string
  | boolean
  | Date
  | null
  | undefined
  | readonly PolicyData[]
  | { readonly [key: string]: PolicyData };

/** The `activity` keyword: the activity being decided. */
export interface PolicyActivity {
  /** Full wire type, e.g. `ACTIVITY_TYPE_SIGN_TRANSACTION_V2`. */
  type: string;
  /** Version-free name, e.g. `SIGN_TRANSACTION`; absent for root-quorum activities. */
  kind?: string;
  /** Policy resource, e.g. `PRIVATE_KEY`, `CREDENTIAL`. */
  resource?: string;
  /** Policy action, e.g. `SIGN`, `CREATE`. */
  action?: string;
  /** Only the parameters the policy language exposes for this type. */
  params?: { readonly [key: string]: PolicyData };
}

/** An element of the `approvers` keyword. */
export interface PolicyUser {
  /** User id. */
  id: string;
  /** Email address, `''` when the user has none. */
  email?: string;
  /** Display name. */
  alias?: string;
  /** User-tag ids. */
  tags: readonly string[];
}

/** An element of the `credentials` keyword. */
export interface PolicyCredential {
  /** Credential id. */
  id: string;
  /** The user the credential belongs to. */
  user_id: string;
  /** `CREDENTIAL_TYPE_*`. */
  type: string;
  /** WebAuthn credential id (passkeys only). */
  credential_id?: string;
  /** Public key, hex. */
  public_key: string;
}

/**
 * The keyword roots an activity is judged with. `approvers[0]` is the submitter. Chain keywords
 * (`eth`, `solana`, ...) and targets (`wallet`, `private_key`, ...) are present only when the activity
 * has them; referencing an absent one makes the policy `OUTCOME_ERROR`.
 */
export interface PolicyContext {
  /** The activity being decided. */
  activity: PolicyActivity;
  /** Users who approved so far, the submitter first. */
  approvers: readonly PolicyUser[];
  /** Credentials used to approve. */
  credentials?: readonly PolicyCredential[];
  /** The wallet signed with or exported (`{id, label, imported, exported}`). */
  wallet?: PolicyData;
  /** The wallets of a request over several wallets. */
  wallets?: PolicyData;
  /** The wallet account signed with or exported (`{address}`). */
  wallet_account?: PolicyData;
  /** The private key signed with or exported (`{id, label, tags, imported, exported}`). */
  private_key?: PolicyData;
  /** `{tx}`, `{eip_712}` or `{eip_7702_authorization}` of an Ethereum request; hex and addresses lowercase. */
  eth?: PolicyData;
  /** `{tx}` of a Solana request. */
  solana?: PolicyData;
  /** `{tx}` of a Tron request. */
  tron?: PolicyData;
  /** `{tx}` of a Bitcoin request. */
  bitcoin?: PolicyData;
  /** `{tx}` of a Tempo request. */
  tempo?: PolicyData;
  /** `{static_properties}` of the secret being exported. */
  secret?: PolicyData;
  /** Trusted server time, read by the `time` keyword and `CronSpan`. */
  time?: {
    /** One value per request: a `Date` or an RFC 3339 string with a zero UTC offset. */
    now: Date | string;
  };
}

/** The organization's root quorum (swagger `externaldatav1Quorum`). */
export interface RootQuorum {
  /** The root users. */
  userIds: readonly string[];
  /** How many distinct root users must approve. */
  threshold: number;
}

/** Why an expression made its policy `OUTCOME_ERROR`. */
export interface EvaluationError {
  /** The expression that failed. */
  field: PolicyExpressionField;
  /** What went wrong, with the position when there is one. */
  message: string;
  /** Character offset in the expression, when the failure has one. */
  position?: number;
}

/** One policy's evaluation record (swagger `immutablecommonv1PolicyEvaluation`, plus the explanation). */
export interface Evaluation {
  /** The policy's id, when it has one. */
  policyId?: string;
  /** The policy's name, when it has one. */
  policyName?: string;
  /** The policy's effect. */
  effect: Effect;
  /** What the policy said about the activity. */
  outcome: Outcome;
  /** Present exactly when `outcome` is `OUTCOME_ERROR`. */
  error?: EvaluationError;
}

/** The overall result of {@link decide}. */
export type DecisionOutcome = "ALLOW" | "DENY" | "CONSENSUS_NEEDED";

/** Which rule of the decision order settled the outcome. */
export type DecisionReason =
  /** Enough root users approved; policies were not consulted. */
  | "ROOT_QUORUM"
  /** Some root users approved, fewer than the threshold, and no policy settled it. */
  | "ROOT_QUORUM_PENDING"
  /** The activity type can only be approved by the root quorum, and no root user approved. */
  | "ROOT_QUORUM_REQUIRED"
  /** An applicable `EFFECT_DENY` policy. */
  | "EXPLICIT_DENY"
  /** An applicable, fully satisfied `EFFECT_ALLOW` policy. */
  | "POLICY_ALLOW"
  /** A user changing their own credentials while no policy allows or denies it. */
  | "SELF_CREDENTIAL"
  /** A matching `EFFECT_ALLOW` policy still needs approvals. */
  | "CONSENSUS_PENDING"
  /** Nothing allowed the activity. */
  | "IMPLICIT_DENY";

/** The decision for one activity at one vote, with one evaluation record per policy. */
export interface Decision {
  /** Whether the activity runs, is refused, or waits for more approvals. */
  outcome: DecisionOutcome;
  /** The rule that settled the outcome. */
  reason: DecisionReason;
  /** One record per policy, in the order given. */
  evaluations: Evaluation[];
}

/** The input of {@link decide}. */
export interface DecideInput {
  /** The organization's policies. */
  policies: readonly Policy[];
  /** The organization's root quorum. */
  rootQuorum: RootQuorum;
  /** The activity and its keyword roots. */
  context: PolicyContext;
}
