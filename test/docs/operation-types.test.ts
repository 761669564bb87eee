/**
 * The named types the in-process methods take and answer (`src/engine/methods/generated/operation-types.ts`) agree
 * with the operation table they are written out from: each parameters type, request and result is mutually
 * assignable with what the row's schema infers and its handler returns. The check is the type checker's
 * (`npm run typecheck` fails on a disagreement); the run checks that every row has its types and that a call through
 * the named types reaches the handler.
 */
import type * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { activityTypeNames, queryTypeNames } from "../../scripts/operation-types.js";
import { renderOperationMethods } from "../../scripts/operations-docs.js";
import type { ActivityOperation, QueryOperation } from "../../src/contract/operation.js";
import type { OperationTypes } from "../../src/engine/methods/generated/operation-types.js";
import type { OperationName } from "../../src/engine/methods/method-types.js";
import {
  type CreateWalletParameters,
  type CreateWalletResult,
  CustodyEngine,
  type GetWalletResponse,
  OPERATIONS,
} from "../../src/index.js";
import type { Operations } from "../../src/operations/table.js";

/** Each row's types as the table infers them, in the shape of `OperationTypes`. */
type TableTypes = {
  [O in Operations[number] as O["method"]]: O extends ActivityOperation<string, infer V, infer R>
    ? { versions: { -readonly [I in keyof V]: v.InferInput<V[I]["parameters"]> }; result: R }
    : O extends QueryOperation<string, infer S, infer R>
      ? { request: v.InferInput<S>; result: R }
      : never;
};

/** Whether each of `A` and `B` is assignable to the other. */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Per method, whether its named types agree with the table's: every entry must be `true`. */
type Agreement = { [M in OperationName]: Agree<OperationTypes[M], TableTypes[M]> };

describe("named operation types", () => {
  it("agree with each row's schemas and handler", () => {
    expectTypeOf<Agreement>().toEqualTypeOf<{ [M in OperationName]: true }>();
    expectTypeOf<keyof OperationTypes>().toEqualTypeOf<OperationName>();
  });

  it("name every row's parameters and result, or its request and response, in the generated methods", () => {
    const methods = renderOperationMethods();
    for (const operation of OPERATIONS) {
      const names =
        operation.kind === "query"
          ? Object.values(queryTypeNames(operation))
          : Object.values(activityTypeNames(operation)).flat();
      for (const name of names) if (name !== null) expect(methods).toContain(`${name}`);
    }
  });

  it("type a call: the parameters in, the result member out", async () => {
    const engine = new CustodyEngine();
    const { organizationId, rootUserIds } = await engine.createOrganization({
      organizationName: "Acme",
      rootUsers: [{ userName: "root" }],
    });
    const root = engine.as({ userId: rootUserIds[0] as string });
    const parameters: CreateWalletParameters = {
      walletName: "main",
      accounts: [
        {
          curve: "CURVE_SECP256K1",
          pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        },
      ],
    };
    const { activity } = await root.createWallet({ organizationId, parameters });
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const created: CreateWalletResult | undefined = activity.result?.createWalletResult;
    expect(created?.addresses).toHaveLength(1);
    const answer: GetWalletResponse = await root.getWallet({ organizationId, walletId: created?.walletId ?? "" });
    expect(answer.wallet.walletName).toBe("main");
  });
});
