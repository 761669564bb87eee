/**
 * Organizations: `create_sub_organization`, and the queries `whoami`, `get_organization`, `list_suborgs`.
 *
 * @module
 */
import * as v from "valibot";
import { CustodyError, invalidArgument } from "../common/errors.js";
import { defineActivity, defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, int32, list, name, pagination, withoutNul } from "../contract/schema.js";
import {
  type CredentialWriteContext,
  createUserWithCredentials,
  rootUserParamsV4,
  rootUserParamsV5,
  type UserParams,
} from "../domain/credentials/index.js";
import { clientSignature, consumeToken, verificationTokenParam, verifySignupToken } from "../domain/verification.js";
import { credentialScope, type DataReader, INDEX } from "../model/data.js";
import type { OrganizationRecord, UserRecord } from "../model/records.js";
import { renderTag, renderUser } from "../model/render.js";
import type { Quorum } from "../model/wire-types.js";
import { renderInvitation } from "./invitations.js";
import { renderPolicy } from "./policies.js";
import { renderPrivateKey } from "./private-keys.js";
import { renderWallet } from "./wallet-queries.js";
import { createWalletRecords, walletParams } from "./wallets.js";

/** Root users per organization (docs/spec/wire-protocol.md §7: 100 users per organization). */
const MAX_ROOT_USERS = 100;

const subOrganizationFlags = {
  disableEmailRecovery: v.optional(v.boolean()),
  disableEmailAuth: v.optional(v.boolean()),
  disableSmsAuth: v.optional(v.boolean()),
  disableOtpEmailAuth: v.optional(v.boolean()),
  // A verification token (`verify_otp`) proving a root user's contact, signed over by the key it binds.
  verificationToken: v.optional(verificationTokenParam),
  clientSignature: v.optional(clientSignature),
};

function subOrganizationParams<U extends typeof rootUserParamsV5 | typeof rootUserParamsV4>(rootUser: U) {
  return v.object({
    subOrganizationName: name,
    rootUsers: v.pipe(list(rootUser, MAX_ROOT_USERS), v.minLength(1, "needs at least one root user")),
    rootQuorumThreshold: int32,
    wallet: v.optional(walletParams),
    ...subOrganizationFlags,
  });
}

/** What creating an organization needs, whether a host bootstrap or a `create_sub_organization`. */
export interface OrganizationParams {
  name: string;
  parentOrganizationId: string | null;
  rootUsers: UserParams[];
  rootQuorumThreshold: number;
  settings: Record<string, boolean>;
}

/** Creates an organization with its root users and root quorum. `field` prefixes error paths. */
export async function createOrganizationRecords(
  context: CredentialWriteContext,
  params: OrganizationParams,
  field: string,
): Promise<{ organization: OrganizationRecord; rootUsers: UserRecord[] }> {
  const { rootQuorumThreshold: threshold, rootUsers } = params;
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > rootUsers.length) {
    throw invalidArgument(
      `rootQuorumThreshold must be between 1 and the number of root users (${rootUsers.length})`,
      `${field}rootQuorumThreshold`,
    );
  }
  const organizationId = context.newId();
  const users: UserRecord[] = [];
  for (const [i, user] of rootUsers.entries()) {
    users.push(await createUserWithCredentials(context, organizationId, user, `${field}rootUsers[${i}]`));
  }
  const organization: OrganizationRecord = {
    id: organizationId,
    name: params.name,
    parentOrganizationId: params.parentOrganizationId,
    rootQuorum: { threshold, userIds: users.map((u) => u.id) },
    features: [],
    settings: params.settings,
    createdAtMs: context.now,
    updatedAtMs: context.now,
  };
  await context.data.put("organizations", organization);
  return { organization, rootUsers: users };
}

const V8 = subOrganizationParams(rootUserParamsV5);
const V7 = subOrganizationParams(rootUserParamsV4);

export const createSubOrganization = defineActivity({
  method: "createSubOrganization",
  path: "create_sub_organization",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      intent: "createSubOrganizationIntentV8",
      result: "createSubOrganizationResultV8",
      parameters: V8,
      secretParameters: ["verificationToken"],
    },
    {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7",
      intent: "createSubOrganizationIntentV7",
      result: "createSubOrganizationResultV7",
      parameters: V7,
      secretParameters: ["verificationToken"],
    },
  ],
  policy: { resource: "ORGANIZATION", action: "CREATE" },
  async handler(context, params) {
    if (context.organization.parentOrganizationId !== null) {
      throw new CustodyError("FAILED_PRECONDITION", "a sub-organization cannot create sub-organizations", {
        field: "organizationId",
      });
    }
    if (params.verificationToken === undefined && params.clientSignature !== undefined) {
      throw invalidArgument("a clientSignature goes with a verificationToken", "parameters.clientSignature");
    }
    const verified =
      params.verificationToken === undefined
        ? undefined
        : verifySignupToken(context, context.organization, params.verificationToken, params.clientSignature, {
            emails: params.rootUsers.flatMap((user) => (user.userEmail === undefined ? [] : [user.userEmail])),
            phoneNumbers: params.rootUsers.flatMap((user) =>
              user.userPhoneNumber === undefined ? [] : [user.userPhoneNumber],
            ),
          });
    const settings: Record<string, boolean> = {};
    for (const flag of ["disableEmailRecovery", "disableEmailAuth", "disableSmsAuth", "disableOtpEmailAuth"] as const) {
      if (params[flag] !== undefined) settings[flag] = params[flag];
    }
    const { organization, rootUsers } = await createOrganizationRecords(
      context,
      {
        name: params.subOrganizationName,
        parentOrganizationId: context.organization.id,
        rootUsers: params.rootUsers,
        rootQuorumThreshold: params.rootQuorumThreshold,
        settings,
      },
      "parameters.",
    );
    if (verified) {
      await consumeToken(
        context.data,
        verified,
        "USAGE_TYPE_SIGNUP",
        organization.id,
        context.now,
        "parameters.verificationToken",
      );
    }
    const wallet =
      params.wallet && (await createWalletRecords(context, organization.id, params.wallet, "parameters.wallet."));
    return {
      subOrganizationId: organization.id,
      ...(wallet ? { wallet } : {}),
      rootUserIds: rootUsers.map((u) => u.id),
    };
  },
});

export const getWhoami = defineQuery({
  method: "getWhoami",
  path: "whoami",
  request: v.object({ organizationId: id }),
  async handler(context) {
    const { data, principal } = context;
    const organization = await data.require("organizations", principal.organizationId, "organization");
    const user = await data.require("users", principal.userId, "user");
    return {
      organizationId: organization.id,
      organizationName: organization.name,
      userId: user.id,
      username: user.userName,
    };
  },
});

async function renderOrganization(data: DataReader, organization: OrganizationRecord) {
  const users = await data.listAll("users", organization.id);
  const rootQuorum: Quorum = {
    threshold: organization.rootQuorum.threshold,
    userIds: [...organization.rootQuorum.userIds],
  };
  return {
    organizationId: organization.id,
    name: organization.name,
    users: await Promise.all(users.map((user) => renderUser(data, user))),
    policies: (await data.listAll("policies", organization.id)).map(renderPolicy),
    privateKeys: (await data.listAll("privateKeys", organization.id)).map(renderPrivateKey),
    invitations: (await data.listAll("invitations", organization.id)).map(renderInvitation),
    tags: (await data.listAll("tags", organization.id)).map(renderTag),
    rootQuorum,
    features: organization.features.map((feature) => ({ ...feature })),
    wallets: (await data.listAll("wallets", organization.id)).map(renderWallet),
    smartContractInterfaceReferences: [],
  };
}

export const getOrganization = defineQuery({
  method: "getOrganization",
  path: "get_organization",
  request: v.object({ organizationId: id }),
  async handler(context) {
    return { organizationData: await renderOrganization(context.data, context.organization) };
  },
});

const SUBORG_FILTERS = [
  "NAME",
  "USERNAME",
  "EMAIL",
  "PHONE_NUMBER",
  "PUBLIC_KEY",
  "CREDENTIAL_ID",
  "OIDC_TOKEN",
] as const;

/** The identity a verified `OIDC_TOKEN` filter value names. */
interface OidcIdentity {
  issuer: string;
  audience: string;
  subject: string;
}

/** Whether a sub-organization matches a `list_suborgs` filter. */
async function matchesFilter(
  data: DataReader,
  organization: OrganizationRecord,
  filterType: (typeof SUBORG_FILTERS)[number],
  value: string,
  identity: OidcIdentity | undefined,
): Promise<boolean> {
  switch (filterType) {
    case "NAME":
      return organization.name === value;
    case "OIDC_TOKEN": {
      const { issuer, audience, subject } = identity as OidcIdentity;
      const key = INDEX.oauthProviderByClaims(organization.id, issuer, audience, subject);
      return (await data.lookup("oauthProviderByClaims", key)) !== undefined;
    }
    case "PUBLIC_KEY":
    case "CREDENTIAL_ID": {
      const kind = filterType === "PUBLIC_KEY" ? "apiKey" : "authenticator";
      const locations = await data.listAll("credentialLocations", credentialScope(kind, value));
      return locations.some((location) => location.organizationId === organization.id);
    }
    default: {
      const users = await data.listAll("users", organization.id);
      const pick = { USERNAME: "userName", EMAIL: "userEmail", PHONE_NUMBER: "userPhoneNumber" } as const;
      return users.some((user) => user[pick[filterType]] === value);
    }
  }
}

export const listSubOrgIds = defineQuery({
  method: "getSubOrgIds",
  path: "list_suborgs",
  request: v.object({
    organizationId: id,
    filterType: v.optional(v.picklist(SUBORG_FILTERS, `filterType must be one of ${SUBORG_FILTERS.join(", ")}`)),
    filterValue: v.optional(v.pipe(v.string(), v.maxLength(16_384), withoutNul)),
    paginationOptions: v.optional(pagination),
  }),
  async handler(context, request) {
    const { data, organization } = context;
    const { filterType, filterValue } = request;
    if ((filterType === undefined) !== (filterValue === undefined || filterValue === "")) {
      throw invalidArgument(
        "filterType and filterValue go together",
        filterType === undefined ? "filterType" : "filterValue",
      );
    }
    // A token filter is verified once: its signature proves the identity the sub-organizations are matched on.
    const identity =
      filterType === "OIDC_TOKEN"
        ? await context.services.oidc.verify(filterValue as string, context.now, "filterValue")
        : undefined;
    const limit = request.paginationOptions?.limit ?? DEFAULT_PAGE_SIZE;
    const { before, after } = request.paginationOptions ?? {};
    const organizationIds: string[] = [];
    let cursor = after;
    // Walks sub-organizations in creation order, filtering page by page, until the page is full.
    while (organizationIds.length < limit) {
      const page = await data.list("organizations", organization.id, { after: cursor, before, limit: 100 });
      for (const sub of page) {
        if (organizationIds.length >= limit) break;
        if (filterType === undefined || (await matchesFilter(data, sub, filterType, filterValue as string, identity))) {
          organizationIds.push(sub.id);
        }
      }
      if (page.length < 100) break;
      cursor = page[page.length - 1]?.id;
    }
    return { organizationIds };
  },
});
