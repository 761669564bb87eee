import { describe, expect, it } from "vitest";
import { CustodyEngine, createSeededRandom, createSteppingClock, fingerprintOf } from "../../src/index.js";
import { expectCustodyError } from "../support/custody-error.js";
import { engineWithOrganization, p256KeyPair, subOrganizationParameters } from "../support/engine.js";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("the submit pipeline", () => {
  it("records a completed activity with every v1Activity field and the submitter's vote", async () => {
    const { root, organizationId, rootUserId } = await engineWithOrganization();
    const parameters = subOrganizationParameters("Child");
    const { activity } = await root.createSubOrganization({ organizationId, parameters });
    expect(Object.keys(activity).sort()).toEqual(
      [
        "id",
        "organizationId",
        "status",
        "type",
        "intent",
        "result",
        "votes",
        "fingerprint",
        "timestampMs",
        "canApprove",
        "canReject",
        "createdAt",
        "updatedAt",
        "failure",
      ].sort(),
    );
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8");
    expect(activity.organizationId).toBe(organizationId);
    expect(activity.intent).toEqual({ createSubOrganizationIntentV8: parameters });
    const result = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    expect(result.rootUserIds).toHaveLength(1);
    expect(activity.failure).toBeNull();
    expect(activity.createdAt).toEqual({
      seconds: expect.stringMatching(/^\d+$/),
      nanos: expect.stringMatching(/^\d+$/),
    });
    expect(activity.votes).toHaveLength(1);
    const vote = activity.votes[0]!;
    expect(vote.userId).toBe(rootUserId);
    expect(vote.selection).toBe("VOTE_SELECTION_APPROVED");
    expect(vote.user.userName).toBe("root");
    expect(activity.fingerprint).toBe(fingerprintOf(vote.message));
    expect(JSON.parse(vote.message)).toMatchObject({ organizationId, parameters });

    const sub = await root.getOrganization({ organizationId: result.subOrganizationId });
    expect(sub.organizationData.name).toBe("Child");
    expect(sub.organizationData.rootQuorum).toEqual({ threshold: 1, userIds: result.rootUserIds });
  });

  it("returns the same activity for the same body and runs nothing twice", async () => {
    const { root, organizationId, engine } = await engineWithOrganization();
    const input = { organizationId, timestampMs: String(Date.now()), parameters: subOrganizationParameters("Once") };
    const first = await root.createSubOrganization(input);
    const second = await root.createSubOrganization(input);
    expect(second.activity.id).toBe(first.activity.id);
    expect(second.activity.fingerprint).toBe(first.activity.fingerprint);
    const { organizationIds } = await root.getSubOrgIds({ organizationId });
    expect(organizationIds).toHaveLength(1);
    const { activities } = await root.getActivities({ organizationId });
    expect(activities).toHaveLength(1);
    // A new timestamp is a new activity.
    const third = await root.createSubOrganization({ ...input, timestampMs: String(Number(input.timestampMs) + 1) });
    expect(third.activity.id).not.toBe(first.activity.id);
    void engine;
  });

  it("keeps accepting in-process calls without timestampMs when a burst outruns the clock", async () => {
    // A clock that stands still: each defaulted timestamp is one ms past the last, so after the skew window
    // (here 20 ms) they lie in the future. They are the engine's own choice, so they are not refused.
    const { root, organizationId } = await engineWithOrganization({ clock: () => T0, maxClockSkewMs: 20 });
    for (let n = 0; n < 40; n++) {
      const { activity } = await root.createUserTag({
        organizationId,
        parameters: { userTagName: `t${n}`, userIds: [] },
      });
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    }
    expect((await root.listUserTags({ organizationId })).userTags).toHaveLength(40);
    await expectCustodyError(
      root.createUserTag({
        organizationId,
        timestampMs: String(T0 + 21),
        parameters: { userTagName: "x", userIds: [] },
      }),
      "INVALID_ARGUMENT",
      "timestampMs",
    );
  });

  it("refuses stale and future timestamps and stores nothing", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const parameters = subOrganizationParameters();
    const hour = 60 * 60 * 1000;
    await expectCustodyError(
      root.createSubOrganization({ organizationId, timestampMs: String(Date.now() - hour - 5000), parameters }),
      "INVALID_ARGUMENT",
      "timestampMs",
    );
    await expectCustodyError(
      root.createSubOrganization({ organizationId, timestampMs: String(Date.now() + 10 * 60 * 1000), parameters }),
      "INVALID_ARGUMENT",
      "timestampMs",
    );
    expect((await root.getActivities({ organizationId })).activities).toEqual([]);
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual([]);
  });

  it("names the field at fault for missing, ill-typed and out-of-range parameters", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const good = subOrganizationParameters();
    const { subOrganizationName: _omit, ...missingName } = good;
    await expectCustodyError(
      root.createSubOrganization({ organizationId, parameters: missingName as typeof good }),
      "INVALID_ARGUMENT",
      "parameters.subOrganizationName",
    );
    const badCurve = structuredClone(good) as unknown as { rootUsers: { apiKeys: { curveType: string }[] }[] };
    badCurve.rootUsers[0]!.apiKeys[0]!.curveType = "API_KEY_CURVE_RSA";
    await expectCustodyError(
      root.createSubOrganization({ organizationId, parameters: badCurve as unknown as typeof good }),
      "INVALID_ARGUMENT",
      "parameters.rootUsers[0].apiKeys[0].curveType",
    );
    await expectCustodyError(
      root.createSubOrganization({
        organizationId,
        parameters: { ...good, rootQuorumThreshold: "two" as unknown as number },
      }),
      "INVALID_ARGUMENT",
      "parameters.rootQuorumThreshold",
    );
    await expectCustodyError(
      root.createSubOrganization({
        organizationId,
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        parameters: good,
      } as unknown as Parameters<typeof root.createSubOrganization>[0]),
      "INVALID_ARGUMENT",
      "type",
    );
    await expectCustodyError(
      root.createSubOrganization({ organizationId: "", parameters: good }),
      "INVALID_ARGUMENT",
      "organizationId",
    );
    expect((await root.getActivities({ organizationId })).activities).toEqual([]);
  });

  it("accepts the older V7 version with its own intent and result members", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createSubOrganization({
      organizationId,
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7",
      parameters: subOrganizationParameters("Old"),
    });
    expect(activity.type).toBe("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7");
    expect(Object.keys(activity.intent)).toEqual(["createSubOrganizationIntentV7"]);
    expect(Object.keys(activity.result ?? {})).toEqual(["createSubOrganizationResultV7"]);
  });

  it("rolls back a failing handler completely and records the FAILED activity", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const shared = p256KeyPair();
    const parameters = subOrganizationParameters("Dup", shared);
    // The second root user repeats the first one's key: the handler fails after writing the first user.
    parameters.rootUsers.push({ ...structuredClone(parameters.rootUsers[0]!), userName: "second" });
    const timestampMs = String(Date.now());
    const error = await expectCustodyError(
      root.createSubOrganization({ organizationId, timestampMs, parameters }),
      "ALREADY_EXISTS",
      "parameters.rootUsers[1].apiKeys[0].publicKey",
    );
    const activityId = error.details.activityId as string;
    const { activity } = await root.getActivity({ organizationId, activityId });
    expect(activity.status).toBe("ACTIVITY_STATUS_FAILED");
    expect(activity.result).toBeNull();
    expect(activity.failure).toMatchObject({ code: 6, message: error.message });
    expect(activity.failure?.details.length).toBeGreaterThan(0);
    // Nothing of the half-created sub-organization remains.
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual([]);
    expect(
      (await root.getSubOrgIds({ organizationId, filterType: "PUBLIC_KEY", filterValue: shared.publicKey }))
        .organizationIds,
    ).toEqual([]);
    // The same body again answers with the same failure and the same activity.
    const again = await expectCustodyError(
      root.createSubOrganization({ organizationId, timestampMs, parameters }),
      "ALREADY_EXISTS",
    );
    expect(again.details.activityId).toBe(activityId);
    expect(again.details.reason).toBe(error.details.reason);
    expect(again.toRpcStatus().details[0]).toEqual(error.toRpcStatus().details[0]);
    expect((await root.getActivities({ organizationId })).activities).toHaveLength(1);
  });

  it("refuses an API key that is not on its curve, naming it", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const parameters = subOrganizationParameters();
    parameters.rootUsers[0]!.apiKeys[0]!.publicKey = `02${"ff".repeat(32)}`;
    await expectCustodyError(
      root.createSubOrganization({ organizationId, parameters }),
      "INVALID_ARGUMENT",
      "parameters.rootUsers[0].apiKeys[0].publicKey",
    );
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual([]);
  });

  it("waits for consensus when the root quorum needs more than the submitter", async () => {
    const engine = new CustodyEngine();
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Two keys",
      rootUsers: [
        {
          userName: "a",
          apiKeys: [{ apiKeyName: "a", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
        },
        {
          userName: "b",
          apiKeys: [{ apiKeyName: "b", publicKey: p256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
        },
      ],
      rootQuorumThreshold: 2,
    });
    const a = engine.as({ userId: rootUserIds[0]! });
    const b = engine.as({ userId: rootUserIds[1]! });
    const { activity } = await a.createSubOrganization({ organizationId, parameters: subOrganizationParameters() });
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(activity.result).toBeNull();
    expect(activity.canApprove).toBe(false); // the submitter has voted
    const seenByB = await b.getActivity({ organizationId, activityId: activity.id });
    expect(seenByB.activity.canApprove).toBe(true);
    expect((await a.getSubOrgIds({ organizationId })).organizationIds).toEqual([]);
  });

  it("refuses a root quorum threshold above the number of root users", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const parameters = { ...subOrganizationParameters(), rootQuorumThreshold: 2 };
    await expectCustodyError(
      root.createSubOrganization({ organizationId, parameters }),
      "INVALID_ARGUMENT",
      "parameters.rootQuorumThreshold",
    );
  });

  it("needs a principal for every operation", async () => {
    const { engine, organizationId } = await engineWithOrganization();
    await expectCustodyError(engine.getWhoami({ organizationId }), "UNAUTHENTICATED");
    await expectCustodyError(engine.as({ userId: "nobody" }).getWhoami({ organizationId }), "UNAUTHENTICATED");
  });

  it("refuses an in-process user deleted after it acted, on the same view, and records nothing", async () => {
    const { root, organizationId, engine } = await engineWithOrganization();
    const { activity } = await root.createUsers({
      organizationId,
      parameters: {
        users: [{ userName: "member", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      },
    });
    const memberId = (activity.result!.createUsersResult as { userIds: string[] }).userIds[0] as string;
    const member = engine.as({ userId: memberId, organizationId });
    // No policy lets the member act: the activity is denied and recorded, after the engine has read the user.
    await expectCustodyError(
      member.createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: "first", privateKeyIds: [] } }),
      "PERMISSION_DENIED",
    );
    await root.deleteUsers({ organizationId, parameters: { userIds: [memberId] } });
    const before = (await root.getActivities({ organizationId })).activities.length;
    await expectCustodyError(
      member.createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: "second", privateKeyIds: [] } }),
      "UNAUTHENTICATED",
    );
    await expectCustodyError(
      engine
        .as({ userId: memberId, organizationId: "00000000-0000-4000-8000-000000000000" })
        .createPrivateKeyTag({ organizationId, parameters: { privateKeyTagName: "third", privateKeyIds: [] } }),
      "UNAUTHENTICATED",
    );
    expect((await root.getActivities({ organizationId })).activities).toHaveLength(before);
    expect((await root.listPrivateKeyTags({ organizationId })).privateKeyTags).toEqual([]);
  });
});

describe("organization scope", () => {
  it("answers whoami for a sub-organization user when the request names the parent", async () => {
    const { root, engine, organizationId } = await engineWithOrganization();
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: subOrganizationParameters("Kid"),
    });
    const { subOrganizationId, rootUserIds } = activity.result!.createSubOrganizationResultV8 as {
      subOrganizationId: string;
      rootUserIds: string[];
    };
    const kid = engine.as({ userId: rootUserIds[0]! });
    expect(await kid.getWhoami({ organizationId })).toEqual({
      organizationId: subOrganizationId,
      organizationName: "Kid",
      userId: rootUserIds[0],
      username: "Kid root",
    });
    expect((await kid.getWhoami({ organizationId: subOrganizationId })).organizationId).toBe(subOrganizationId);
    // ...but the child may not read the parent's organization.
    await expectCustodyError(kid.getOrganization({ organizationId }), "PERMISSION_DENIED", "organizationId");
  });

  it("lets a parent read a sub-organization but not write to it", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const { activity } = await root.createSubOrganization({
      organizationId,
      parameters: subOrganizationParameters("Kid"),
    });
    const { subOrganizationId } = activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string };
    expect((await root.getOrganization({ organizationId: subOrganizationId })).organizationData.organizationId).toBe(
      subOrganizationId,
    );
    expect((await root.getActivities({ organizationId: subOrganizationId })).activities).toEqual([]);
    const error = await expectCustodyError(
      root.createSubOrganization({ organizationId: subOrganizationId, parameters: subOrganizationParameters() }),
      "INVALID_ARGUMENT",
    );
    expect(error.details.reason).toBe("ORGANIZATION_MISMATCH");
    expect(error.httpStatus).toBe(400);
    expect((await root.getActivities({ organizationId: subOrganizationId })).activities).toEqual([]);
  });

  it("reports an unknown organization as NOT_FOUND", async () => {
    const { root } = await engineWithOrganization();
    await expectCustodyError(
      root.getOrganization({ organizationId: "00000000-0000-7000-8000-000000000000" }),
      "NOT_FOUND",
      "organizationId",
    );
  });
});

describe("list_activities and list_suborgs", () => {
  it("filters by status and type and pages newest first with cursors", async () => {
    const { root, organizationId } = await engineWithOrganization({ clock: createSteppingClock(Date.now()) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await root.createSubOrganization({ organizationId, parameters: subOrganizationParameters(`S${i}`) })).activity
          .id,
      );
    }
    const dup = subOrganizationParameters("bad", p256KeyPair());
    dup.rootUsers.push({ ...structuredClone(dup.rootUsers[0]!), userName: "again" });
    await root.createSubOrganization({ organizationId, parameters: dup }).catch(() => undefined);

    const all = (await root.getActivities({ organizationId, paginationOptions: { limit: "100" } })).activities;
    expect(all).toHaveLength(6);
    expect(all.slice(1).map((a) => a.id)).toEqual([...ids].reverse());
    const failed = await root.getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    expect(failed.activities).toHaveLength(1);
    const byType = await root.getActivities({ organizationId, filterByType: ["ACTIVITY_TYPE_CREATE_WALLET"] });
    expect(byType.activities).toEqual([]);

    const page1 = (
      await root.getActivities({
        organizationId,
        filterByStatus: ["ACTIVITY_STATUS_COMPLETED"],
        paginationOptions: { limit: "2" },
      })
    ).activities;
    expect(page1.map((a) => a.id)).toEqual([ids[4], ids[3]]);
    const page2 = (
      await root.getActivities({ organizationId, paginationOptions: { limit: "2", before: page1[1]!.id } })
    ).activities;
    expect(page2.map((a) => a.id)).toEqual([ids[2], ids[1]]);
    const back = (await root.getActivities({ organizationId, paginationOptions: { limit: "2", after: ids[1]! } }))
      .activities;
    expect(back.map((a) => a.id)).toEqual([ids[3], ids[2]]);

    await expectCustodyError(
      root.getActivities({ organizationId, paginationOptions: { limit: "0" } }),
      "INVALID_ARGUMENT",
      "paginationOptions.limit",
    );
    await expectCustodyError(
      root.getActivities({ organizationId, paginationOptions: { limit: "101" } }),
      "INVALID_ARGUMENT",
      "paginationOptions.limit",
    );
    await expectCustodyError(
      root.getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_NOPE" as "ACTIVITY_STATUS_FAILED"] }),
      "INVALID_ARGUMENT",
      "filterByStatus[0]",
    );
  });

  it("finds sub-organizations by name, user name and public key, in pages", async () => {
    const { root, organizationId } = await engineWithOrganization();
    const key = p256KeyPair();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const params = subOrganizationParameters(`Org${i}`, i === 2 ? key : undefined);
      const { activity } = await root.createSubOrganization({ organizationId, parameters: params });
      made.push((activity.result!.createSubOrganizationResultV8 as { subOrganizationId: string }).subOrganizationId);
    }
    expect((await root.getSubOrgIds({ organizationId })).organizationIds).toEqual(made);
    expect(
      (await root.getSubOrgIds({ organizationId, paginationOptions: { limit: "2", after: made[1]! } })).organizationIds,
    ).toEqual([made[2], made[3]]);
    expect(
      (await root.getSubOrgIds({ organizationId, filterType: "NAME", filterValue: "Org1" })).organizationIds,
    ).toEqual([made[1]]);
    expect(
      (await root.getSubOrgIds({ organizationId, filterType: "USERNAME", filterValue: "Org3 root" })).organizationIds,
    ).toEqual([made[3]]);
    expect(
      (await root.getSubOrgIds({ organizationId, filterType: "PUBLIC_KEY", filterValue: key.publicKey }))
        .organizationIds,
    ).toEqual([made[2]]);
    await expectCustodyError(
      root.getSubOrgIds({ organizationId, filterType: "COLOR" as "NAME", filterValue: "x" }),
      "INVALID_ARGUMENT",
      "filterType",
    );
  });
});

describe("deterministic mode", () => {
  async function run() {
    const engine = new CustodyEngine({
      clock: createSteppingClock(T0),
      random: createSeededRandom("fixture"),
      maxRequestAgeMs: Number.MAX_SAFE_INTEGER,
    });
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Det",
      rootUsers: [
        {
          userName: "root",
          apiKeys: [
            {
              apiKeyName: "k",
              publicKey: `02${"79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"}`,
              curveType: "API_KEY_CURVE_SECP256K1",
            },
          ],
        },
      ],
    });
    const root = engine.as({ userId: rootUserIds[0]! });
    const params = {
      subOrganizationName: "Child",
      rootUsers: [
        {
          userName: "c",
          apiKeys: [],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
    };
    await root.createSubOrganization({ organizationId, parameters: params });
    await root.createSubOrganization({ organizationId, parameters: { ...params, subOrganizationName: "Child 2" } });
    return {
      organizationId,
      activities: await root.getActivities({ organizationId }),
      organization: await root.getOrganization({ organizationId }),
    };
  }

  it("gives identical ids and records for the same calls", async () => {
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a.activities.activities).toHaveLength(2);
    expect(a.organizationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
