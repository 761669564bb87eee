/**
 * Signing activities show policies their target: a member allowed to sign with one wallet (or one tagged
 * private key) signs there and is denied elsewhere.
 */
import { hashMessage } from "viem";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { addPolicy, organizationWithMembers, walletParameters } from "../support/consensus.js";

const digest = hashMessage("policy-gated");
const signParameters = (signWith: string) => ({
  signWith,
  payload: digest,
  encoding: "PAYLOAD_ENCODING_HEXADECIMAL" as const,
  hashFunction: "HASH_FUNCTION_NO_OP" as const,
});

describe("policies over signing targets", () => {
  it("lets a member sign with the wallet a policy names, and nowhere else", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["signer"]);
    const created = async (walletName: string) => {
      const { activity } = await root.createWallet({ organizationId, parameters: walletParameters(walletName) });
      return activity.result!.createWalletResult as { walletId: string; addresses: string[] };
    };
    const allowed = await created("allowed");
    const other = await created("other");
    await addPolicy(root, organizationId, {
      policyName: "signer uses the allowed wallet",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${members.signer.userId}')`,
      condition: `activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && wallet.id == '${allowed.walletId}'`,
    });
    const { activity } = await members.signer.as.signRawPayload({
      organizationId,
      parameters: signParameters(allowed.addresses[0]!),
    });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const denied = await members.signer.as
      .signRawPayload({ organizationId, parameters: signParameters(other.addresses[0]!) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(denied).toBeInstanceOf(CustodyError);
    expect((denied as CustodyError).code).toBe("PERMISSION_DENIED");
  });

  it("matches private keys by tag", async () => {
    const { root, organizationId, members } = await organizationWithMembers(["signer"]);
    const { activity: tagActivity } = await root.createPrivateKeyTag({
      organizationId,
      parameters: { privateKeyTagName: "hot", privateKeyIds: [] },
    });
    const { privateKeyTagId } = tagActivity.result!.createPrivateKeyTagResult as { privateKeyTagId: string };
    const { activity } = await root.createPrivateKeys({
      organizationId,
      parameters: {
        privateKeys: [
          {
            privateKeyName: "tagged",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [privateKeyTagId],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
          {
            privateKeyName: "plain",
            curve: "CURVE_SECP256K1",
            privateKeyTags: [],
            addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
          },
        ],
      },
    });
    const [tagged, plain] = (activity.result!.createPrivateKeysResultV2 as { privateKeys: { privateKeyId: string }[] })
      .privateKeys;
    await addPolicy(root, organizationId, {
      policyName: "hot keys sign",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${members.signer.userId}')`,
      condition: `activity.action == 'SIGN' && private_key.tags.contains('${privateKeyTagId}')`,
    });
    const ok = await members.signer.as.signRawPayload({
      organizationId,
      parameters: signParameters(tagged!.privateKeyId),
    });
    expect(ok.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const denied = await members.signer.as
      .signRawPayload({ organizationId, parameters: signParameters(plain!.privateKeyId) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((denied as CustodyError).code).toBe("PERMISSION_DENIED");
  });
});
