/**
 * Organization features: `set_organization_feature` and `remove_organization_feature`. Both are
 * root-quorum-only (docs/spec/policy-language.md §3: no policy can allow them). `FEATURE_NAME_WEBHOOK`'s value
 * is a webhook URL, checked against the engine's URL rules; every other feature's value is kept as given (the
 * engine reads `FEATURE_NAME_WEBAUTHN_ORIGINS`). Features show in `get_organization`.
 *
 * @module
 */
import * as v from "valibot";
import { notFound } from "../common/errors.js";
import { type ActivityContext, defineActivity } from "../contract/operation.js";
import type { FeatureRecord } from "../model/records.js";
import { WEBHOOK_FEATURE } from "../webhooks/targets.js";
import { checkWebhookUrl } from "../webhooks/url-policy.js";

/** `v1FeatureName`. */
export const FEATURE_NAMES = [
  "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY",
  "FEATURE_NAME_WEBAUTHN_ORIGINS",
  "FEATURE_NAME_EMAIL_AUTH",
  "FEATURE_NAME_EMAIL_RECOVERY",
  "FEATURE_NAME_WEBHOOK",
  "FEATURE_NAME_SMS_AUTH",
  "FEATURE_NAME_OTP_EMAIL_AUTH",
  "FEATURE_NAME_AUTH_PROXY",
  "FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED",
  "FEATURE_NAME_SWAP_CONFIG",
  "FEATURE_NAME_EARN_CONFIG",
] as const;

/** Longest feature value (configuration JSON, origin lists, URLs). */
const MAX_FEATURE_VALUE_LENGTH = 16_384;

const featureName = v.picklist(FEATURE_NAMES, `must be one of ${FEATURE_NAMES.join(", ")}`);

/** A feature as `v1Feature`. */
function renderFeatures(features: readonly FeatureRecord[]): { name: string; value: string }[] {
  return features.map(({ name, value }) => ({ name, value }));
}

/** Replaces the organization's features, read again inside the transaction (the context's copy may be older). */
async function writeFeatures(
  context: ActivityContext,
  change: (features: FeatureRecord[]) => FeatureRecord[],
): Promise<{ features: { name: string; value: string }[] }> {
  const { data } = context;
  const organization = await data.require("organizations", context.organization.id, "organization");
  const features = change(organization.features.map((feature) => ({ ...feature })));
  await data.put("organizations", { ...organization, features, updatedAtMs: context.now });
  return { features: renderFeatures(features) };
}

export const setOrganizationFeature = defineActivity({
  method: "setOrganizationFeature",
  path: "set_organization_feature",
  versions: [
    {
      type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
      intent: "setOrganizationFeatureIntent",
      result: "setOrganizationFeatureResult",
      parameters: v.object({
        name: featureName,
        // The swagger lists it as required but describes it as optional: absent means an empty value.
        value: v.optional(
          v.pipe(
            v.string(),
            v.maxLength(MAX_FEATURE_VALUE_LENGTH, `must be at most ${MAX_FEATURE_VALUE_LENGTH} characters`),
          ),
          "",
        ),
      }),
    },
  ],
  policy: null,
  async handler(context, params) {
    if (params.name === WEBHOOK_FEATURE)
      checkWebhookUrl(params.value, context.services.webhookUrls, "parameters.value");
    return writeFeatures(context, (features) => {
      const existing = features.find((feature) => feature.name === params.name);
      if (existing) {
        existing.value = params.value;
        return features;
      }
      return [...features, { name: params.name, value: params.value }];
    });
  },
});

export const removeOrganizationFeature = defineActivity({
  method: "removeOrganizationFeature",
  path: "remove_organization_feature",
  versions: [
    {
      type: "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE",
      intent: "removeOrganizationFeatureIntent",
      result: "removeOrganizationFeatureResult",
      parameters: v.object({ name: featureName }),
    },
  ],
  policy: null,
  async handler(context, params) {
    return writeFeatures(context, (features) => {
      if (!features.some((feature) => feature.name === params.name)) {
        throw notFound("feature", params.name, "parameters.name");
      }
      return features.filter((feature) => feature.name !== params.name);
    });
  },
});
