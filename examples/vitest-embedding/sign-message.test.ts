import { Turnkey } from "@turnkey/sdk-server";
import { createAccount } from "@turnkey/viem";
import { createTestOrganization, ETHEREUM_ACCOUNT } from "custodian/testing";
import { recoverMessageAddress, serializeSignature } from "viem";
import { afterAll, expect, it, vi } from "vitest";

const org = await createTestOrganization(); // a real engine in-process: an organization, a root user, its API key
vi.stubGlobal("fetch", org.fetch); // @turnkey/sdk-server sends through the global fetch: now to custodian
afterAll(() => org.close());

it("signs a message for a non-root user once the root user approves it", async () => {
  const root = new Turnkey(org.turnkeyConfig).apiClient();
  const [signWith] = (await root.createWallet({ walletName: "w", accounts: [ETHEREUM_ACCOUNT] })).addresses as [string];
  const agent = await org.createUser({
    name: "agent", // not root: the root quorum settles the root user's requests before any policy is read
    policies: [{ effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN'", consensus: "approvers.count() >= 2" }],
  });
  const client = new Turnkey(agent.turnkeyConfig).apiClient(); // polls every 10 ms, not every second
  const signer = await createAccount({ client: client as never, organizationId: org.organizationId, signWith });
  const pending = await signer.signMessage({ message: "hi" }).catch((error: unknown) => error);
  expect(pending).toMatchObject({ name: "TurnkeyConsensusNeededError" }); // the policy wants a second approver
  const approved = await org.approve(pending); // as the root user; `org.approve(pending, user)` for another voter
  const { r, s, v } = approved.result!.signRawPayloadResult as { r: string; s: string; v: string };
  const signature = serializeSignature({ r: `0x${r}`, s: `0x${s}`, yParity: Number(v) });
  expect(await recoverMessageAddress({ message: "hi", signature })).toBe(signWith);
});
