/**
 * `list_verified_suborgs`: the sub-organizations in which a user holds an email address or phone number
 * that a spent verification token proved (sign-up or log-in by one-time code). sdk-server's
 * `getOrCreateSuborg` uses it to tell a verified account from one that merely names the contact.
 *
 * @module
 */
import * as v from "valibot";
import { invalidArgument } from "../common/errors.js";
import { defineQuery } from "../contract/operation.js";
import { DEFAULT_PAGE_SIZE, id, pagination, withoutNul } from "../contract/schema.js";
import { userWithVerifiedContact } from "../model/contacts.js";
import type { OtpType } from "../model/records.js";

const FILTERS = { EMAIL: "OTP_TYPE_EMAIL", PHONE_NUMBER: "OTP_TYPE_SMS" } as const satisfies Record<string, OtpType>;

export const listVerifiedSubOrgIds = defineQuery({
  method: "getVerifiedSubOrgIds",
  path: "list_verified_suborgs",
  request: v.object({
    organizationId: id,
    filterType: v.optional(v.picklist(["EMAIL", "PHONE_NUMBER"], "filterType must be EMAIL or PHONE_NUMBER")),
    filterValue: v.optional(v.pipe(v.string(), v.maxLength(320), withoutNul)),
    paginationOptions: v.optional(pagination),
  }),
  async handler(context, request) {
    const { data, organization } = context;
    if (request.filterType === undefined || !request.filterValue) {
      throw invalidArgument(
        "filterType and filterValue are required",
        request.filterType ? "filterValue" : "filterType",
      );
    }
    const otpType = FILTERS[request.filterType];
    const limit = request.paginationOptions?.limit ?? DEFAULT_PAGE_SIZE;
    const organizationIds: string[] = [];
    let cursor = request.paginationOptions?.after;
    while (organizationIds.length < limit) {
      const page = await data.list("organizations", organization.id, {
        after: cursor,
        before: request.paginationOptions?.before,
        limit: 100,
      });
      for (const sub of page) {
        if (
          organizationIds.length < limit &&
          (await userWithVerifiedContact(data, sub.id, otpType, request.filterValue)) !== undefined
        ) {
          organizationIds.push(sub.id);
        }
      }
      if (page.length < 100) break;
      cursor = page[page.length - 1]?.id;
    }
    return { organizationIds };
  },
});
