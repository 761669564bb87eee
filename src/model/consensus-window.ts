/**
 * The consensus window of a pending activity: "activities do not expire but approvals (votes) do". The
 * submission is the first approval and opens a 24-hour window; approvals that do not reach consensus within
 * it expire and must be cast again, while the activity stays `ACTIVITY_STATUS_CONSENSUS_NEEDED` (Turnkey docs,
 * developer-reference/api-overview/submissions). A vote cast after a window closed opens the next one.
 *
 * @module
 */
import type { VoteRecord } from "./records.js";

/** How long approvals have to reach consensus, from the vote that opens the window. */
export const CONSENSUS_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The consensus window a pending activity's votes stand in at `now`. */
export interface ConsensusWindow {
  /** The votes of the window still open: the ones that count. Empty when the last window has closed. */
  readonly counting: VoteRecord[];
  /** When the open window closes (ms), or undefined when none is open. */
  readonly closesAtMs: number | undefined;
  /** Votes of windows that closed without consensus: they no longer count. */
  readonly expired: VoteRecord[];
}

/** Splits `votes` (in the order cast) into those that count at `now` and those that expired. */
export function consensusWindow(votes: readonly VoteRecord[], now: number): ConsensusWindow {
  let opened: number | undefined;
  let current: VoteRecord[] = [];
  const expired: VoteRecord[] = [];
  for (const vote of votes) {
    if (opened === undefined || vote.createdAtMs >= opened + CONSENSUS_WINDOW_MS) {
      expired.push(...current);
      opened = vote.createdAtMs;
      current = [];
    }
    current.push(vote);
  }
  if (opened === undefined || now >= opened + CONSENSUS_WINDOW_MS) {
    return { counting: [], closesAtMs: undefined, expired: [...expired, ...current] };
  }
  return { counting: current, closesAtMs: opened + CONSENSUS_WINDOW_MS, expired };
}
