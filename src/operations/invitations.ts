/**
 * Invitations: `create_invitations` records who is invited (and mails them through the message port),
 * `delete_invitation` revokes one by deleting it; `get_organization` lists those still open.
 *
 * @module
 */
import * as v from "valibot";
import { defineActivity } from "../contract/operation.js";
import { id, list, name } from "../contract/schema.js";
import { userEmail } from "../domain/credentials/index.js";
import type { InvitationRecord } from "../model/records.js";
import { timestamp } from "../model/render.js";

/** `v1Invitation`. */
export function renderInvitation(invitation: InvitationRecord) {
  return {
    invitationId: invitation.id,
    receiverUserName: invitation.receiverUserName,
    receiverEmail: invitation.receiverEmail,
    receiverUserTags: [...invitation.receiverUserTags],
    accessType: invitation.accessType,
    status: invitation.status,
    createdAt: timestamp(invitation.createdAtMs),
    updatedAt: timestamp(invitation.updatedAtMs),
    senderUserId: invitation.senderUserId,
  };
}

const invitationParams = v.object({
  receiverUserName: name,
  receiverUserEmail: userEmail,
  receiverUserTags: list(id, 100),
  accessType: v.picklist(["ACCESS_TYPE_WEB", "ACCESS_TYPE_API", "ACCESS_TYPE_ALL"]),
  senderUserId: id,
});

export const createInvitations = defineActivity({
  method: "createInvitations",
  path: "create_invitations",
  versions: [
    {
      type: "ACTIVITY_TYPE_CREATE_INVITATIONS",
      intent: "createInvitationsIntent",
      result: "createInvitationsResult",
      parameters: v.object({
        invitations: v.pipe(list(invitationParams, 100), v.minLength(1, "needs at least one invitation")),
      }),
    },
  ],
  policy: { resource: "INVITATION", action: "CREATE" },
  async handler(context, params) {
    const { data, organization } = context;
    const invitationIds: string[] = [];
    for (const [i, invitation] of params.invitations.entries()) {
      const field = `parameters.invitations[${i}]`;
      const sender = await data.requireInOrganization(
        "users",
        invitation.senderUserId,
        organization.id,
        "user",
        `${field}.senderUserId`,
      );
      for (const [j, tagId] of invitation.receiverUserTags.entries()) {
        await data.requireInOrganization("tags", tagId, organization.id, "user tag", `${field}.receiverUserTags[${j}]`);
      }
      const record: InvitationRecord = {
        id: context.newId(),
        organizationId: organization.id,
        receiverUserName: invitation.receiverUserName,
        receiverEmail: invitation.receiverUserEmail,
        receiverUserTags: invitation.receiverUserTags,
        accessType: invitation.accessType,
        senderUserId: sender.id,
        status: "INVITATION_STATUS_CREATED",
        createdAtMs: context.now,
        updatedAtMs: context.now,
      };
      await data.put("invitations", record);
      invitationIds.push(record.id);
    }
    for (const [i, invitation] of params.invitations.entries()) {
      await context.services.messages.send(
        {
          channel: "email",
          to: invitation.receiverUserEmail,
          organizationId: organization.id,
          subject: `You are invited to ${organization.name}`,
          text: `${invitation.receiverUserName}, you are invited to ${organization.name} (invitation ${invitationIds[i]}).`,
        },
        context.now,
      );
    }
    return { invitationIds };
  },
});

export const deleteInvitation = defineActivity({
  method: "deleteInvitation",
  path: "delete_invitation",
  versions: [
    {
      type: "ACTIVITY_TYPE_DELETE_INVITATION",
      intent: "deleteInvitationIntent",
      result: "deleteInvitationResult",
      parameters: v.object({ invitationId: id }),
    },
  ],
  policy: { resource: "INVITATION", action: "DELETE" },
  async handler(context, params) {
    const { data, organization } = context;
    await data.requireInOrganization(
      "invitations",
      params.invitationId,
      organization.id,
      "invitation",
      "parameters.invitationId",
    );
    await data.delete("invitations", params.invitationId);
    return { invitationId: params.invitationId };
  },
});
