/**
 * Webhook URLs that reach loopback, private or metadata addresses through an IPv6 spelling: the address
 * mapped or embedded in IPv6 (IPv4-compatible, NAT64, 6to4, Teredo, ISATAP), in any case and padding. Each is
 * refused wherever a webhook URL is set, naming the field, and leaves nothing behind.
 */
import { describe, expect, it } from "vitest";
import { refusal } from "../support/consensus.js";
import { engineWithOrganization } from "../support/engine.js";

const HOSTS = [
  "[::127.0.0.1]",
  "[64:ff9b::127.0.0.1]",
  "[2002:7f00:1::1]",
  "[::ffff:127.0.0.1]",
  "[0:0:0:0:0:FFFF:7F00:0001]",
  "[64:ff9b::169.254.169.254]",
  "[2002:a9fe:a9fe::1]",
  "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
  "[2001:db8:1::5efe:10.0.0.1]",
  "[::ffff:0:192.168.0.1]",
];

describe("webhook URLs that embed a refused IPv4 address in IPv6", () => {
  it("are refused for endpoints and the legacy webhook feature, and nothing is stored", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createWebhookEndpoint({
      organizationId,
      parameters: { url: "https://hooks.example.com/", name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
    });
    const { endpointId } = activity.result!.createWebhookEndpointResult as { endpointId: string };
    for (const host of HOSTS) {
      const url = `https://${host}:8443/hooks`;
      const created = await refusal(
        root.createWebhookEndpoint({
          organizationId,
          parameters: { url, name: "n", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] },
        }),
        "INVALID_ARGUMENT",
        "WEBHOOK_URL_NOT_PUBLIC",
      );
      expect(created.details.field, host).toBe("parameters.url");
      const updated = await refusal(
        root.updateWebhookEndpoint({ organizationId, parameters: { endpointId, url } }),
        "INVALID_ARGUMENT",
        "WEBHOOK_URL_NOT_PUBLIC",
      );
      expect(updated.details.field, host).toBe("parameters.url");
      const feature = await refusal(
        root.setOrganizationFeature({ organizationId, parameters: { name: "FEATURE_NAME_WEBHOOK", value: url } }),
        "INVALID_ARGUMENT",
        "WEBHOOK_URL_NOT_PUBLIC",
      );
      expect(feature.details.field, host).toBe("parameters.value");
    }
    const { webhookEndpoints } = await root.listWebhookEndpoints({ organizationId });
    expect(webhookEndpoints.map((endpoint) => endpoint.url)).toEqual(["https://hooks.example.com/"]);
    expect((await root.getOrganization({ organizationId })).organizationData.features).toEqual([]);
  });
});
