/**
 * Webhook endpoints: create, update, delete and list in the swagger's shapes, the refusals (each naming its
 * field), and policy control through the WEBHOOK_ENDPOINT resource.
 */
import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ENDPOINTS } from "../../src/operations/webhook-endpoints.js";
import { addPolicy, organizationWithMembers, refusal } from "../support/consensus.js";
import { engineWithOrganization, subOrganizationParameters } from "../support/engine.js";

const URL_A = "https://hooks.example.com/a";
const URL_B = "https://hooks.example.com/b";
const ACTIVITY_UPDATES = [{ eventType: "ACTIVITY_UPDATES" }];

describe("webhook endpoints", () => {
  it("creates, lists, updates and deletes an endpoint", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const created = (
      await root.createWebhookEndpoint({
        organizationId,
        parameters: { url: URL_A, name: "Activity updates", subscriptions: ACTIVITY_UPDATES },
      })
    ).activity;
    expect(created.type).toBe("ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT");
    const { endpointId, webhookEndpoint } = created.result!.createWebhookEndpointResult as {
      endpointId: string;
      webhookEndpoint: unknown;
    };
    const data = {
      endpointId,
      organizationId,
      url: URL_A,
      name: "Activity updates",
      isActive: true,
      subscriptions: [{ eventType: "ACTIVITY_UPDATES", isActive: true }],
    };
    expect(webhookEndpoint).toEqual(data);
    expect(await root.listWebhookEndpoints({ organizationId })).toEqual({ webhookEndpoints: [data] });

    const updated = (
      await root.updateWebhookEndpoint({
        organizationId,
        parameters: { endpointId, url: URL_B, name: "Renamed", isActive: false },
      })
    ).activity;
    const expected = { ...data, url: URL_B, name: "Renamed", isActive: false };
    expect(updated.result).toEqual({ updateWebhookEndpointResult: { endpointId, webhookEndpoint: expected } });
    expect(await root.listWebhookEndpoints({ organizationId })).toEqual({ webhookEndpoints: [expected] });

    const deleted = (await root.deleteWebhookEndpoint({ organizationId, parameters: { endpointId } })).activity;
    expect(deleted.result).toEqual({ deleteWebhookEndpointResult: { endpointId } });
    expect(await root.listWebhookEndpoints({ organizationId })).toEqual({ webhookEndpoints: [] });
  });

  it("keeps an inactive subscription and an empty filter as given", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createWebhookEndpoint({
      organizationId,
      parameters: {
        url: URL_A,
        name: "paused",
        subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: "{}", isActive: false }],
      },
    });
    const { webhookEndpoint } = activity.result!.createWebhookEndpointResult as { webhookEndpoint: unknown };
    expect(webhookEndpoint).toMatchObject({
      subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: "{}", isActive: false }],
    });
  });

  it("refuses bad URLs and subscriptions, naming the field", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const create = (parameters: { url: string; name: string; subscriptions?: object[] }) =>
      root.createWebhookEndpoint({ organizationId, parameters: parameters as never });
    const cases: [Parameters<typeof create>[0], string, string, string][] = [
      [{ url: "http://hooks.example.com/", name: "n" }, "INVALID_ARGUMENT", "WEBHOOK_URL_INSECURE", "parameters.url"],
      [
        { url: "https://u:p@hooks.example.com/", name: "n" },
        "INVALID_ARGUMENT",
        "WEBHOOK_URL_USERINFO",
        "parameters.url",
      ],
      [{ url: "https://169.254.169.254/", name: "n" }, "INVALID_ARGUMENT", "WEBHOOK_URL_NOT_PUBLIC", "parameters.url"],
      [
        { url: URL_A, name: "n", subscriptions: [{ eventType: "EVERYTHING" }] },
        "INVALID_ARGUMENT",
        "UNKNOWN_EVENT_TYPE",
        "parameters.subscriptions[0].eventType",
      ],
      [
        { url: URL_A, name: "n", subscriptions: [...ACTIVITY_UPDATES, ...ACTIVITY_UPDATES] },
        "INVALID_ARGUMENT",
        "DUPLICATE_SUBSCRIPTION",
        "parameters.subscriptions[1].eventType",
      ],
      [
        { url: URL_A, name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES", filtersJson: '{"type":"x"}' }] },
        "INVALID_ARGUMENT",
        "UNSUPPORTED_FILTER",
        "parameters.subscriptions[0].filtersJson",
      ],
    ];
    for (const [parameters, code, reason, field] of cases) {
      const error = await refusal(create(parameters), code, reason);
      expect(error.details.field, JSON.stringify(parameters)).toBe(field);
    }
    const emptyName = await refusal(create({ url: URL_A, name: "" }), "INVALID_ARGUMENT");
    expect(emptyName.details.field).toBe("parameters.name");
    expect(await root.listWebhookEndpoints({ organizationId })).toEqual({ webhookEndpoints: [] });
  });

  it("refuses unknown endpoints and those of another organization, and a bad new URL on update", async () => {
    const { engine, root, organizationId } = await engineWithOrganization();
    const sub = (await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters("Child") }))
      .activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string; rootUserIds: string[] };
    const subRoot = engine.as({ userId: sub.rootUserIds[0]! });
    const { activity } = await subRoot.createWebhookEndpoint({
      organizationId: sub.subOrganizationId,
      parameters: { url: URL_A, name: "child", subscriptions: ACTIVITY_UPDATES },
    });
    const { endpointId } = activity.result!.createWebhookEndpointResult as { endpointId: string };

    for (const id of [endpointId, "00000000-0000-7000-8000-000000000000"]) {
      const update = await refusal(
        root.updateWebhookEndpoint({ organizationId, parameters: { endpointId: id, name: "x" } }),
        "NOT_FOUND",
        "WEBHOOK_ENDPOINT_NOT_FOUND",
      );
      expect(update.details.field).toBe("parameters.endpointId");
      const remove = await refusal(
        root.deleteWebhookEndpoint({ organizationId, parameters: { endpointId: id } }),
        "NOT_FOUND",
      );
      expect(remove.details.field).toBe("parameters.endpointId");
    }
    const badUrl = await refusal(
      subRoot.updateWebhookEndpoint({
        organizationId: sub.subOrganizationId,
        parameters: { endpointId, url: "https://10.0.0.1/" },
      }),
      "INVALID_ARGUMENT",
      "WEBHOOK_URL_NOT_PUBLIC",
    );
    expect(badUrl.details.field).toBe("parameters.url");
    // The parent reads its sub-organization's endpoints.
    expect((await root.listWebhookEndpoints({ organizationId: sub.subOrganizationId })).webhookEndpoints).toHaveLength(
      1,
    );
  });

  it(`allows at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per organization`, async () => {
    const { root, organizationId } = await engineWithOrganization();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      await root.createWebhookEndpoint({
        organizationId,
        parameters: { url: `${URL_A}/${i}`, name: `e${i}`, subscriptions: ACTIVITY_UPDATES },
      });
    }
    const error = await refusal(
      root.createWebhookEndpoint({ organizationId, parameters: { url: URL_B, name: "one too many" } }),
      "RESOURCE_EXHAUSTED",
      "WEBHOOK_ENDPOINT_LIMIT",
    );
    expect(error.details.field).toBe("organizationId");
  });

  it("is governed by policies on the WEBHOOK_ENDPOINT resource", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["ops"]);
    const create = () =>
      members.ops.as.createWebhookEndpoint({
        organizationId,
        parameters: { url: URL_A, name: "ops", subscriptions: ACTIVITY_UPDATES },
      });
    await refusal(create(), "PERMISSION_DENIED", "POLICY_DENIED");
    await addPolicy(root, organizationId, {
      policyName: "ops manages webhooks",
      effect: "EFFECT_ALLOW",
      condition: "activity.resource == 'WEBHOOK_ENDPOINT' && activity.action == 'CREATE'",
    });
    expect((await create()).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });
});
