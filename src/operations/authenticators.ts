/**
 * Passkeys: `create_authenticators`, `delete_authenticators`, and the queries `get_authenticator` and
 * `get_authenticators`. Registration verifies the WebAuthn attestation (`crypto/webauthn`).
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument, notFound } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { id, list } from "../contract/schema.js";
import {
  addAuthenticator,
  authenticatorParams,
  LIMITS,
  removeAuthenticator,
  requireUser,
} from "../domain/credentials/index.js";
import type { AuthenticatorRecord } from "../model/records.js";
import { renderAuthenticator } from "../model/render.js";
import { retireRecoveryCredentials } from "./user-recovery.js";

export const createAuthenticators = defineActivity({
  method: "createAuthenticators",
  path: "create_authenticators",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2",
      intent: "createAuthenticatorsIntentV2",
      result: "createAuthenticatorsResult",
      parameters: v.object({
        authenticators: v.pipe(
          list(authenticatorParams, LIMITS.authenticatorsPerUser),
          v.minLength(1, "needs at least one authenticator"),
        ),
        userId: id,
      }),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "CREATE" },
  async handler(context, params) {
    const user = await requireUser(context.data, context.organization.id, params.userId, "parameters.userId");
    const authenticatorIds: string[] = [];
    for (const [i, authenticator] of params.authenticators.entries()) {
      const added = await addAuthenticator(context, user, authenticator, `parameters.authenticators[${i}]`);
      authenticatorIds.push(added.id);
    }
    // The hosted email-recovery example adds the new passkey with create_authenticators: that ends the recovery too.
    await retireRecoveryCredentials(context, user);
    return { authenticatorIds };
  },
});

export const deleteAuthenticators = defineActivity({
  method: "deleteAuthenticators",
  path: "delete_authenticators",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_AUTHENTICATORS",
      intent: "deleteAuthenticatorsIntent",
      result: "deleteAuthenticatorsResult",
      parameters: v.object({
        userId: id,
        authenticatorIds: v.pipe(
          list(id, LIMITS.authenticatorsPerUser),
          v.minLength(1, "needs at least one authenticator id"),
        ),
      }),
    },
  ],
  policy: { resource: "CREDENTIAL", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    const user = await requireUser(data, organization.id, params.userId, "parameters.userId");
    const authenticators: AuthenticatorRecord[] = [];
    for (const [i, authenticatorId] of params.authenticatorIds.entries()) {
      const field = `parameters.authenticatorIds[${i}]`;
      if (params.authenticatorIds.indexOf(authenticatorId) !== i) {
        throw invalidArgument(`authenticator ${authenticatorId} is listed twice`, field);
      }
      const authenticator = await data.get("authenticators", authenticatorId);
      // A passkey of another user is not found for this one: the policy decision covered `userId` only.
      if (!authenticator || authenticator.userId !== user.id) throw notFound("authenticator", authenticatorId, field);
      authenticators.push(authenticator);
    }
    for (const authenticator of authenticators) await removeAuthenticator(data, authenticator);
    return { authenticatorIds: authenticators.map((authenticator) => authenticator.id) };
  },
});

export const getAuthenticator = defineQuery({
  method: "getAuthenticator",
  path: "get_authenticator",
  request: v.object({ organizationId: id, authenticatorId: id }),
  async handler(context, request) {
    const { data, organization } = context;
    const authenticator = await data.requireInOrganization(
      "authenticators",
      request.authenticatorId,
      organization.id,
      "authenticator",
      "authenticatorId",
    );
    return { authenticator: renderAuthenticator(authenticator) };
  },
});

export const getAuthenticators = defineQuery({
  method: "getAuthenticators",
  path: "get_authenticators",
  request: v.object({ organizationId: id, userId: id }),
  async handler(context, request) {
    const user = await requireUser(context.data, context.organization.id, request.userId, "userId");
    const authenticators = await context.data.listAll("authenticators", user.id);
    return { authenticators: authenticators.map(renderAuthenticator) };
  },
});
