/**
 * What is generated from the operation table stays in step with it: the documented `OperationMethods`
 * interface, the named types its methods take and answer, the hosted API's paths and the table of operations in
 * `docs/operations.md`. On failure run `npm run generate:operations`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  documentWithOperations,
  HOSTED_PATHS_FILE,
  METHODS_FILE,
  OPERATIONS_DOC_FILE,
  renderHostedApiPaths,
  renderOperationMethods,
  renderTypes,
  TYPES_FILE,
} from "../../scripts/operations-docs.js";
import { OPERATIONS } from "../../src/index.js";

describe("generated operation docs", () => {
  it("src/engine/methods/generated/operation-methods.ts documents every row as the table says (npm run generate:operations)", () => {
    expect(readFileSync(METHODS_FILE, "utf8")).toBe(renderOperationMethods());
  });

  // The types are resolved by the TypeScript compiler over the whole project: seconds, not milliseconds.
  it("src/engine/methods/generated/operation-types.ts spells out each row's schemas and handler (npm run generate:operations)", {
    timeout: 120_000,
  }, () => {
    expect(readFileSync(TYPES_FILE, "utf8")).toBe(renderTypes());
  });

  it("src/http/generated/hosted-api-paths.ts lists the hosted API's paths (npm run generate:operations)", () => {
    expect(readFileSync(HOSTED_PATHS_FILE, "utf8")).toBe(renderHostedApiPaths());
  });

  it("docs/operations.md lists the operations as the table has them (npm run generate:operations)", () => {
    const document = readFileSync(OPERATIONS_DOC_FILE, "utf8");
    expect(document).toBe(documentWithOperations(document));
  });

  it("documents each method with its activity type and policy", () => {
    const generated = renderOperationMethods();
    for (const operation of OPERATIONS) {
      expect(generated).toContain(`  ${operation.method}(`);
      if (operation.kind === "activity") expect(generated).toContain(`Activity \`${operation.versions[0].type}\``);
    }
    expect(generated).toContain(
      'createWallet(\n    input: ActivityInput<CreateWalletParameters, "ACTIVITY_TYPE_CREATE_WALLET">,\n  ): Promise<ActivityResponseOf<{ createWalletResult: CreateWalletResult }>>;',
    );
    expect(generated).toContain("getWallet(input: GetWalletRequest): Promise<GetWalletResponse>;");
    expect(generated).toContain("Policy: resource `WALLET`, action `CREATE`.");
  });
});
