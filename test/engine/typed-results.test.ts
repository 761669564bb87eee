/**
 * The in-process methods are typed from the operation table: `activity.result` of an activity carries its
 * version's result member with the handler's value, `type` picks the version, and queries answer their
 * handler's shape. Checked by the type checker (`npm run typecheck`) and at run time.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ActivityResponse } from "../../src/index.js";
import { createTestOrganization, ETHEREUM_ACCOUNT } from "../../src/testing/index.js";

describe("typed results", () => {
  it("types createWallet's result as { createWalletResult: { walletId, addresses } } once completed", async () => {
    const { root, organizationId } = await createTestOrganization();
    const { activity } = await root.createWallet({
      organizationId,
      parameters: { walletName: "w", accounts: [ETHEREUM_ACCOUNT] },
    });
    if (activity.status !== "ACTIVITY_STATUS_COMPLETED") throw new Error(`unexpected status ${activity.status}`);
    expectTypeOf(activity.result).toEqualTypeOf<{ createWalletResult: { walletId: string; addresses: string[] } }>();
    const { walletId, addresses } = activity.result.createWalletResult;
    expect(addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const { wallet } = await root.getWallet({ organizationId, walletId });
    expectTypeOf(wallet.walletName).toEqualTypeOf<string>();
    expect(wallet.walletName).toBe("w");
  });

  it("types the result as null while the activity is not completed", async () => {
    const { root, organizationId } = await createTestOrganization();
    const { activity } = await root.createWallet({ organizationId, parameters: { walletName: "w", accounts: [] } });
    if (activity.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED") expectTypeOf(activity.result).toEqualTypeOf<null>();
    expectTypeOf(activity.result?.createWalletResult.walletId).toEqualTypeOf<string | undefined>();
    expect(activity.result?.createWalletResult.walletId).toEqual(expect.any(String));
  });

  it("types an older version's result member when `type` names that version", async () => {
    const { root, organizationId } = await createTestOrganization();
    const { activity } = await root.createPolicy({
      organizationId,
      parameters: { policyName: "p", effect: "EFFECT_ALLOW", condition: "true", consensus: "true", notes: "" },
    });
    const policyId = activity.result?.createPolicyResult.policyId as string;
    const current = await root.updatePolicy({ organizationId, parameters: { policyId, policyName: "q" } });
    expectTypeOf(current.activity.result?.updatePolicyResultV2.policyId).toEqualTypeOf<string | undefined>();
    expect(current.activity.result?.updatePolicyResultV2.policyId).toBe(policyId);
    const older = await root.updatePolicy({
      organizationId,
      type: "ACTIVITY_TYPE_UPDATE_POLICY",
      parameters: { policyId, policyName: "r" },
    });
    expectTypeOf(older.activity.result?.updatePolicyResult.policyId).toEqualTypeOf<string | undefined>();
    expect(older.activity.result?.updatePolicyResult.policyId).toBe(policyId);
  });

  it("answers a vote with the activity voted on, untyped", () => {
    type Vote = Awaited<ReturnType<Awaited<ReturnType<typeof createTestOrganization>>["root"]["approveActivity"]>>;
    expectTypeOf<Vote>().toEqualTypeOf<ActivityResponse>();
  });
});
