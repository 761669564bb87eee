/**
 * Organization features: set (replacing a value), remove, shown by get_organization; FEATURE_NAME_WEBHOOK's
 * URL follows the webhook URL rules; both activities belong to the root quorum alone.
 */
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { ROOT_QUORUM_ONLY_ACTIVITY_TYPES } from "../../src/policy/index.js";
import { addPolicy, organizationWithMembers, refusal } from "../support/consensus.js";
import { engineWithOrganization } from "../support/engine.js";

describe("set_organization_feature and remove_organization_feature", () => {
  it("sets, replaces and removes features, each result listing the organization's features", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const set = async (name: string, value?: string) =>
      (
        await root.setOrganizationFeature({
          organizationId,
          parameters: { name, ...(value !== undefined ? { value } : {}) } as never,
        })
      ).activity;

    const first = await set("FEATURE_NAME_WEBAUTHN_ORIGINS", "https://app.example.com");
    expect(first.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(first.type).toBe("ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE");
    expect(first.intent).toEqual({
      setOrganizationFeatureIntent: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "https://app.example.com" },
    });
    await set("FEATURE_NAME_EMAIL_AUTH");
    const replaced = await set("FEATURE_NAME_WEBAUTHN_ORIGINS", "https://a.example.com,https://b.example.com");
    expect(replaced.result).toEqual({
      setOrganizationFeatureResult: {
        features: [
          { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "https://a.example.com,https://b.example.com" },
          { name: "FEATURE_NAME_EMAIL_AUTH", value: "" },
        ],
      },
    });
    expect((await root.getOrganization({ organizationId })).organizationData.features).toEqual([
      { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "https://a.example.com,https://b.example.com" },
      { name: "FEATURE_NAME_EMAIL_AUTH", value: "" },
    ]);

    const removed = (
      await root.removeOrganizationFeature({ organizationId, parameters: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS" } })
    ).activity;
    expect(removed.type).toBe("ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE");
    expect(removed.result).toEqual({
      removeOrganizationFeatureResult: { features: [{ name: "FEATURE_NAME_EMAIL_AUTH", value: "" }] },
    });
    expect((await root.getOrganization({ organizationId })).organizationData.features).toEqual([
      { name: "FEATURE_NAME_EMAIL_AUTH", value: "" },
    ]);
  });

  it("refuses unknown feature names and removing a feature that is not set, naming the field", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const unknown = await refusal(
      root.setOrganizationFeature({
        organizationId,
        parameters: { name: "FEATURE_NAME_TELEPORT" as never, value: "1" },
      }),
      "INVALID_ARGUMENT",
    );
    expect(unknown.details.field).toBe("parameters.name");
    const missing = await refusal(
      root.removeOrganizationFeature({ organizationId, parameters: { name: "FEATURE_NAME_SMS_AUTH" } }),
      "NOT_FOUND",
      "FEATURE_NOT_FOUND",
    );
    expect(missing.details.field).toBe("parameters.name");
  });

  it("checks a FEATURE_NAME_WEBHOOK value against the webhook URL rules", async () => {
    const strict = await engineWithOrganization();
    const set = (value: string) =>
      strict.root.setOrganizationFeature({
        organizationId: strict.organizationId,
        parameters: { name: "FEATURE_NAME_WEBHOOK", value },
      });
    for (const [value, reason] of [
      ["http://127.0.0.1:8080/hooks", "WEBHOOK_URL_INSECURE"],
      ["https://192.168.0.10/hooks", "WEBHOOK_URL_NOT_PUBLIC"],
      ["https://me:pw@hooks.example.com/", "WEBHOOK_URL_USERINFO"],
      ["not a url", "WEBHOOK_URL_INVALID"],
    ] as const) {
      const error = await refusal(set(value), "INVALID_ARGUMENT", reason);
      expect(error.details.field).toBe("parameters.value");
    }
    const accepted = (await set("https://hooks.example.com/turnkey")).activity;
    expect(accepted.result?.setOrganizationFeatureResult).toEqual({
      features: [{ name: "FEATURE_NAME_WEBHOOK", value: "https://hooks.example.com/turnkey" }],
    });

    const local = await engineWithOrganization({ allowInsecureWebhooks: true });
    const { activity } = await local.root.setOrganizationFeature({
      organizationId: local.organizationId,
      parameters: { name: "FEATURE_NAME_WEBHOOK", value: "http://127.0.0.1:8080/hooks" },
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    await local.engine.close();
  });

  it("belongs to the root quorum alone: no policy lets a member change features", async () => {
    expect(ROOT_QUORUM_ONLY_ACTIVITY_TYPES).toContain("ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE");
    expect(ROOT_QUORUM_ONLY_ACTIVITY_TYPES).toContain("ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE");
    const { root, organizationId, members } = await organizationWithMembers(["alice"]);
    await addPolicy(root, organizationId, { policyName: "anything", effect: "EFFECT_ALLOW", condition: "true" });
    const error = await refusal(
      members.alice.as.setOrganizationFeature({
        organizationId,
        parameters: { name: "FEATURE_NAME_EMAIL_AUTH", value: "" },
      }),
      "PERMISSION_DENIED",
    );
    expect(error).toBeInstanceOf(CustodyError);
    expect(error.details.decision).toBe("ROOT_QUORUM_REQUIRED");
    expect((await root.getOrganization({ organizationId })).organizationData.features).toEqual([]);
  });
});
