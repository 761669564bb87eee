/**
 * The proxy's `oauth2_authenticate`: a kit's X or Discord log-in hands the provider's authorization code here,
 * and the proxy exchanges it with the OAuth 2.0 credential its organization holds for that provider and client
 * id (the client secret the app's owner uploaded with `create_oauth2_credential`). It answers the provider's
 * OIDC token, which the kit then spends at `oauth_login` or `signup`.
 *
 * @module
 */
import * as v from "valibot";
import { OAUTH2_PROVIDERS } from "../auth/oauth2.js";
import { CustodyError } from "../common/errors.js";
import { parseWith } from "../engine/pipeline/validate.js";
import { type AuthProxy, activityResult, type Body, str } from "./context.js";

const oauth2AuthenticateRequest = v.object({
  provider: v.picklist(OAUTH2_PROVIDERS),
  authCode: str,
  redirectUri: str,
  codeVerifier: str,
  nonce: str,
  clientId: str,
});

/** The kit's provider names, as `enabledProviders` lists them. */
const KIT_PROVIDER: Readonly<Record<(typeof OAUTH2_PROVIDERS)[number], string>> = {
  OAUTH2_PROVIDER_X: "x",
  OAUTH2_PROVIDER_DISCORD: "discord",
};

export async function oauth2Authenticate(proxy: AuthProxy, body: Body): Promise<Body> {
  const request = parseWith(oauth2AuthenticateRequest, body, "");
  proxy.assertEnabled(KIT_PROVIDER[request.provider]);
  const { oauth2Credentials } = await proxy.acting.listOauth2Credentials({ organizationId: proxy.organizationId });
  const credential = oauth2Credentials.find(
    (held) => held.provider === request.provider && held.clientId === request.clientId,
  );
  if (credential === undefined) {
    throw new CustodyError(
      "NOT_FOUND",
      `this app holds no OAuth 2.0 credential for ${request.provider} with this client id: its owner adds one with create_oauth2_credential`,
      { field: "clientId", reason: "OAUTH2_CREDENTIAL_NOT_FOUND" },
    );
  }
  const response = await proxy.acting.oauth2Authenticate({
    organizationId: proxy.organizationId,
    parameters: {
      oauth2CredentialId: credential.oauth2CredentialId,
      authCode: request.authCode,
      redirectUri: request.redirectUri,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
    },
  });
  return { oidcToken: activityResult(response, "oauth2AuthenticateResult").oidcToken };
}
