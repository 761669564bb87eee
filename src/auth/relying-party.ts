/**
 * The WebAuthn relying party that passkeys are scoped to: one relying-party id for the engine, and the
 * origins a page may register or assert from, per organization.
 *
 * @module
 */

import { invalidArgument } from "../common/errors.js";
import type { DataReader } from "../model/data.js";
import type { OrganizationRecord } from "../model/records.js";

/** The organization feature that names the origins passkeys are scoped to. */
export const WEBAUTHN_ORIGINS_FEATURE = "FEATURE_NAME_WEBAUTHN_ORIGINS";

/** Engine options of the relying party. */
export interface RelyingPartyOptions {
  /** The relying-party id (a domain, no scheme or port). Default `localhost`. */
  rpId?: string;
  /**
   * Origins allowed when no organization feature says otherwise, compared exactly: web origins
   * (`https://app.example`) or app origins (`android:apk-key-hash:...`). Default `["http://localhost"]`.
   */
  origins?: readonly string[];
}

/**
 * The relying party: `rpId` binds every passkey, and the allowed origins are the organization's
 * `FEATURE_NAME_WEBAUTHN_ORIGINS`, else its parent's (Turnkey: "parent organization feature applies to all
 * sub-organizations"), else the engine's. Origins compare exactly; there is no wildcard, so an engine never
 * accepts a page it was not told about.
 */
export class WebauthnRelyingParty {
  readonly rpId: string;
  readonly origins: readonly string[];

  constructor(options: RelyingPartyOptions = {}) {
    const rpId = options.rpId ?? "localhost";
    if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(rpId) || rpId.length > 253) {
      throw invalidArgument(`webauthn.rpId must be a domain name without scheme or port, got ${rpId}`, "webauthn.rpId");
    }
    const origins = options.origins ?? ["http://localhost"];
    if (origins.length === 0)
      throw invalidArgument("webauthn.origins must list at least one origin", "webauthn.origins");
    for (const [i, origin] of origins.entries()) assertOrigin(origin, `webauthn.origins[${i}]`);
    this.rpId = rpId;
    this.origins = [...origins];
  }

  /**
   * The origins allowed for passkeys of `organization`. Pass the organization a request names when the
   * user's own organization is being created in the same request (its parent's feature then applies).
   */
  async originsFor(data: DataReader, organization: OrganizationRecord | undefined): Promise<readonly string[]> {
    if (organization === undefined) return this.origins;
    const own = featureOrigins(organization);
    if (own !== undefined) return own;
    if (organization.parentOrganizationId !== null) {
      const parent = await data.get("organizations", organization.parentOrganizationId);
      const inherited = parent && featureOrigins(parent);
      if (inherited) return inherited;
    }
    return this.origins;
  }
}

/** The origins a feature value lists: one origin, or several separated by commas. */
function featureOrigins(organization: OrganizationRecord): string[] | undefined {
  const feature = organization.features.find((candidate) => candidate.name === WEBAUTHN_ORIGINS_FEATURE);
  if (feature === undefined) return undefined;
  const origins = feature.value
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin !== "");
  return origins.length > 0 ? origins : undefined;
}

/**
 * An origin as client data carries it: a web origin `scheme://host[:port]` with nothing after (a trailing
 * slash would never match), or an app origin such as Android's `android:apk-key-hash:<hash>`.
 */
function assertOrigin(origin: string, field: string): void {
  const problem = `${field} must be an origin such as https://app.example (scheme, host, port), got ${origin}`;
  if (origin === "" || /\s/.test(origin)) throw invalidArgument(problem, field);
  if (!/^https?:/i.test(origin)) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed.origin !== origin) throw invalidArgument(problem, field);
}
