/**
 * The chains a host lets the engine broadcast to: one backend per CAIP-2 id (`eip155:31337`,
 * `solana:<genesis hash>`). An emulator has no business reaching a public chain, so nothing is reachable
 * unless the host names it; a request for any other chain is `FAILED_PRECONDITION` naming the chain.
 *
 * @module
 */
import { CustodyError, invalidArgument } from "../common/errors.js";
import { callJsonRpc, type JsonRpcLimits } from "./rpc.js";

/**
 * A chain's JSON-RPC endpoint as an object: the engine calls `request(method, params)` and expects the
 * JSON-RPC `result`, or a thrown `ChainRpcError` (the node refused) / `ChainUnreachable` (no answer) from
 * `chains/rpc.ts`. Give an object to reach an in-process devnet without HTTP, or {@link httpChainBackend} with
 * limits of your own.
 */
export interface ChainBackend {
  /** Calls one JSON-RPC method and resolves with its `result`. */
  request(method: string, params: readonly unknown[]): Promise<unknown>;
  /** What to show in errors and logs for this backend (a URL); defaults to the CAIP-2 id. */
  readonly label?: string;
}

/** The `chains` engine option: CAIP-2 id → an RPC URL or a {@link ChainBackend}. */
export type ChainsOption = Readonly<Record<string, string | ChainBackend>>;

/**
 * A JSON-RPC-over-HTTP backend for `url`, each call bounded by `limits`: its time, answer included (default
 * 10 s), and the size of the answer read (default 1 MiB). An RPC URL given as a string gets the defaults.
 */
export function httpChainBackend(url: string, limits: JsonRpcLimits = {}): ChainBackend {
  return { label: url, request: (method, params) => callJsonRpc(url, method, params, limits) };
}

/** `eip155:<decimal chain id>` or `solana:<reference>` (CAIP-2: namespace, then a reference of 1–32 chars). */
const CAIP2 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,64})$/;

/** The namespace (`eip155`, `solana`) of a well-formed CAIP-2 id, else undefined. */
export function caip2Namespace(caip2: string): string | undefined {
  return CAIP2.exec(caip2)?.[1];
}

/** The same cluster under its other CAIP-2 spellings (swagger: aliases are normalized to canonical ids). */
const EQUIVALENT_IDS: readonly (readonly string[])[] = [
  ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "solana:mainnet", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"],
  ["solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "solana:devnet", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG"],
];

/** The chain backends the host configured. */
export class ChainRegistry {
  readonly #backends = new Map<string, ChainBackend>();

  constructor(chains: ChainsOption = {}) {
    for (const [caip2, backend] of Object.entries(chains)) {
      if (caip2Namespace(caip2) === undefined) {
        throw invalidArgument(`chains: ${caip2} is not a CAIP-2 chain id (e.g. eip155:31337)`, `chains.${caip2}`);
      }
      if (typeof backend === "string") {
        let url: URL;
        try {
          url = new URL(backend);
        } catch {
          throw invalidArgument(`chains: the RPC URL of ${caip2} is not a URL`, `chains.${caip2}`);
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          throw invalidArgument(`chains: the RPC URL of ${caip2} must be http or https`, `chains.${caip2}`);
        }
        this.#backends.set(caip2, httpChainBackend(backend));
      } else if (backend !== null && typeof backend === "object" && typeof backend.request === "function") {
        this.#backends.set(caip2, backend);
      } else {
        throw invalidArgument(`chains: ${caip2} needs an RPC URL or an object with request()`, `chains.${caip2}`);
      }
    }
  }

  /** The configured chain ids. */
  get chainIds(): string[] {
    return [...this.#backends.keys()];
  }

  /** Whether any chain is configured (the status tracker runs only then). */
  get isEmpty(): boolean {
    return this.#backends.size === 0;
  }

  /**
   * The configured id `caip2` names: itself, or the spelling the host configured of the same Solana cluster
   * (`solana:devnet`, the 32-character and the full genesis hash). A chain not configured keeps its id.
   */
  configuredId(caip2: string): string {
    const spellings = EQUIVALENT_IDS.find((ids) => ids.includes(caip2)) ?? [caip2];
    return spellings.find((id) => this.#backends.has(id)) ?? caip2;
  }

  /** How assets and answers name the chain `caip2`: a Solana alias as its cluster's canonical CAIP-2 id. */
  canonicalId(caip2: string): string {
    return EQUIVALENT_IDS.find((ids) => ids.includes(caip2))?.[0] ?? caip2;
  }

  /** The backend of `caip2`, or undefined. */
  find(caip2: string): ChainBackend | undefined {
    return this.#backends.get(caip2);
  }

  /** The backend of `caip2`; `FAILED_PRECONDITION` naming the chain (and the request `field`) without one. */
  require(caip2: string, field: string): ChainBackend {
    const backend = this.#backends.get(caip2);
    if (backend) return backend;
    const configured = this.chainIds;
    throw new CustodyError(
      "FAILED_PRECONDITION",
      `no chain backend for ${caip2}: the host must name its RPC (engine option chains, dev server --rpc ${caip2}=<url>)${
        configured.length > 0 ? `; configured: ${configured.join(", ")}` : ""
      }`,
      { field, reason: "CHAIN_NOT_CONFIGURED", caip2 },
    );
  }
}
