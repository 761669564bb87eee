/**
 * Writes each operation's parameter and result types out as plain TypeScript, so a hover or an API page shows the
 * fields rather than the valibot schema they are inferred from. The TypeScript compiler resolves
 * `v.InferInput<schema>` (what a caller passes) and the handler's return type (what it answers) for every row of the
 * table; `printType` then spells each resolved type out, naming only types the package exports (`User`,
 * `Timestamp`, ...) and expanding every other one, so no name reaches the API docs that they do not document.
 *
 * Used by `scripts/operations-docs.ts`; `test/docs/operation-types.test.ts` checks the named types against the
 * schemas at the type level.
 */
import { spawnSync } from "node:child_process";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { ActivityOperation, Operation } from "../src/contract/operation.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const GENERATED_DIR = `${ROOT}src/engine/methods/generated/`;
/** A module the compiler is handed but that is never written: it names the types to resolve. */
const PROBE_FILE = `${GENERATED_DIR}__operation-types-probe.ts`;
const PUBLIC_ENTRY = `${ROOT}src/index.ts`;

/** `createWallet` → `CreateWallet`. */
export const pascal = (method: string) => method.charAt(0).toUpperCase() + method.slice(1);

/** The names of one activity row's types: one parameters type per distinct schema, in version order. */
export interface ActivityTypeNames {
  /** Per version (in the row's order), the name of its parameters type. */
  readonly parameters: readonly string[];
  /** The result member's value type; null for votes, whose response is the activity voted on. */
  readonly result: string | null;
}

/** The names the generated types of `operation` take. */
export function activityTypeNames(operation: ActivityOperation): ActivityTypeNames {
  const base = pascal(operation.method);
  const parameters: string[] = [];
  operation.versions.forEach((version, index) => {
    const same = operation.versions.findIndex((other) => other.parameters === version.parameters);
    if (same < index) {
      parameters.push(parameters[same] as string);
      return;
    }
    parameters.push(index === 0 ? `${base}Parameters` : `${base}${versionSuffix(version.type)}Parameters`);
  });
  return { parameters, result: operation.vote ? null : `${base}Result` };
}

/** `ACTIVITY_TYPE_INIT_OTP_V2` → `V2`; a type without a version suffix is the first version, `V1`. */
function versionSuffix(type: string): string {
  return /_(V\d+)$/.exec(type)?.[1] ?? "V1";
}

/** The names of a query row's types. */
export function queryTypeNames(operation: Operation): { request: string; response: string } {
  const base = pascal(operation.method);
  return { request: `${base}Request`, response: `${base}Response` };
}

/** One type to declare: its name, its doc comment and the probe alias that resolves it. */
interface Declaration {
  readonly name: string;
  readonly doc: string;
  readonly probe: string;
}

function declarationsOf(rows: readonly Operation[]): Declaration[] {
  const declarations: Declaration[] = [];
  for (const operation of rows) {
    const row = `Row<"${operation.method}">`;
    if (operation.kind === "query") {
      const names = queryTypeNames(operation);
      declarations.push(
        {
          name: names.request,
          doc: `The request of \`${operation.method}\` (\`POST /public/v1/query/${operation.path}\`).`,
          probe: `v.InferInput<${row}["request"]>`,
        },
        {
          name: names.response,
          doc: `What \`${operation.method}\` answers.`,
          probe: `ResultOfRow<${row}>`,
        },
      );
      continue;
    }
    const names = activityTypeNames(operation);
    const declared = new Set<string>();
    operation.versions.forEach((version, index) => {
      const name = names.parameters[index] as string;
      if (declared.has(name)) return;
      declared.add(name);
      const types = operation.versions
        .filter((other) => other.parameters === version.parameters)
        .map((other) => `\`${other.type}\``)
        .join(", ");
      declarations.push({
        name,
        doc: `The \`parameters\` of \`${operation.method}\` for ${types}.`,
        probe: `v.InferInput<${row}["versions"][${index}]["parameters"]>`,
      });
    });
    if (names.result !== null) {
      const members = [...new Set(operation.versions.map((version) => `\`activity.result.${version.result}\``))];
      declarations.push({
        name: names.result,
        doc: `What ${members.join(" or ")} holds once \`${operation.method}\` completes.`,
        probe: `ResultOfRow<${row}>`,
      });
    }
  }
  return declarations;
}

function probeText(declarations: readonly Declaration[]): string {
  return [
    `import type * as v from "valibot";`,
    `import type { Operations } from "../../../operations/table.js";`,
    `type Row<M> = Extract<Operations[number], { method: M }>;`,
    `type ResultOfRow<O> = O extends { handler?(...parameters: any[]): Promise<infer R> } ? R : never;`,
    ...declarations.map((declaration, index) => `export type T${index} = ${declaration.probe};`),
  ].join("\n");
}

/** The type checker of the project with the probe module added. */
function checkerWith(probe: string): { checker: ts.TypeChecker; probe: ts.SourceFile; entry: ts.SourceFile } {
  const configFile = ts.findConfigFile(ROOT, ts.sys.fileExists, "tsconfig.json");
  if (!configFile) throw new Error("tsconfig.json not found");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, ROOT);
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (file, language, ...rest) =>
    file === PROBE_FILE
      ? ts.createSourceFile(file, probe, language)
      : getSourceFile.call(host, file, language, ...rest);
  const fileExists = host.fileExists;
  host.fileExists = (file) => file === PROBE_FILE || fileExists.call(host, file);
  const program = ts.createProgram([PROBE_FILE, PUBLIC_ENTRY], config.options, host);
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(PROBE_FILE));
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, host));
  const probeFile = program.getSourceFile(PROBE_FILE);
  const entry = program.getSourceFile(PUBLIC_ENTRY);
  if (!probeFile || !entry) throw new Error("the probe or src/index.ts did not load");
  return { checker: program.getTypeChecker(), probe: probeFile, entry };
}

/** Spells resolved types out, naming the package's exported types and expanding the others. */
class TypePrinter {
  /** Module path (relative to the generated directory, `.js`) → names imported from it. */
  readonly imports = new Map<string, Set<string>>();
  private readonly exported: Map<ts.Symbol, string>;
  private readonly expanding = new Set<ts.Type>();

  constructor(
    private readonly checker: ts.TypeChecker,
    entry: ts.SourceFile,
  ) {
    const module = checker.getSymbolAtLocation(entry);
    if (!module) throw new Error("src/index.ts has no module symbol");
    // What this generator wrote before is left out: the names are redeclared from the table each time.
    this.exported = new Map(
      checker
        .getExportsOfModule(module)
        .map((symbol): [ts.Symbol, string] => [
          symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
          symbol.name,
        ])
        .filter(
          ([target]) => !target.declarations?.some((node) => node.getSourceFile().fileName.startsWith(GENERATED_DIR)),
        ),
    );
  }

  /** The names `src/index.ts` exports. */
  exportedNames(): Set<string> {
    return new Set(this.exported.values());
  }

  print(type: ts.Type, indent = ""): string {
    const named = this.publicName(type);
    if (named !== undefined) return named;
    const { flags } = type;
    if (flags & ts.TypeFlags.Boolean) return "boolean";
    if (flags & ts.TypeFlags.Union) return this.union((type as ts.UnionType).types, indent);
    if (flags & ts.TypeFlags.Intersection && !this.isObjectLike(type)) {
      return (type as ts.IntersectionType).types.map((member) => this.print(member, indent)).join(" & ");
    }
    if (
      flags &
      (ts.TypeFlags.String |
        ts.TypeFlags.Number |
        ts.TypeFlags.BigInt |
        ts.TypeFlags.Null |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Unknown |
        ts.TypeFlags.Never |
        ts.TypeFlags.Void |
        ts.TypeFlags.Literal |
        ts.TypeFlags.TemplateLiteral)
    ) {
      return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    }
    if (flags & ts.TypeFlags.Any) throw new Error("an operation type resolves to `any`: give it a type");
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return this.sequence(type, indent);
    if (this.isObjectLike(type)) return this.object(type, indent);
    throw new Error(`cannot spell out the type ${this.checker.typeToString(type)}`);
  }

  /** The name of a type `src/index.ts` exports (imported from its declaring module), if `type` is one. */
  private publicName(type: ts.Type): string | undefined {
    const symbol =
      type.aliasSymbol ??
      (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference
        ? (type as ts.TypeReference).target.symbol
        : type.symbol);
    if (!symbol) return undefined;
    const name = this.exported.get(symbol);
    if (name === undefined) return undefined;
    const declaration = symbol.declarations?.[0];
    if (!declaration) return undefined;
    const file = declaration.getSourceFile().fileName;
    if (!file.startsWith(`${ROOT}src/`)) return undefined;
    const arguments_ = type.aliasSymbol ? type.aliasTypeArguments : undefined;
    if (arguments_ && arguments_.length > 0) return undefined;
    const path = relative(dirname(PROBE_FILE), file).replace(/\.ts$/, ".js");
    const names = this.imports.get(path) ?? new Set<string>();
    names.add(name);
    this.imports.set(path, names);
    return name;
  }

  private isObjectLike(type: ts.Type): boolean {
    if (type.flags & ts.TypeFlags.Object) return true;
    return (
      (type.flags & ts.TypeFlags.Intersection) !== 0 &&
      (type as ts.IntersectionType).types.every((member) => member.flags & ts.TypeFlags.Object)
    );
  }

  private union(members: readonly ts.Type[], indent: string, withoutUndefined = false): string {
    const kept = members.filter((member) => !(withoutUndefined && member.flags & ts.TypeFlags.Undefined));
    const booleans = kept.filter((member) => member.flags & ts.TypeFlags.BooleanLiteral);
    const printed: string[] = [];
    let booleanPrinted = false;
    for (const member of kept) {
      if (booleans.length === 2 && member.flags & ts.TypeFlags.BooleanLiteral) {
        if (!booleanPrinted) printed.push("boolean");
        booleanPrinted = true;
        continue;
      }
      const text = this.print(member, indent);
      printed.push(member.flags & ts.TypeFlags.Intersection ? `(${text})` : text);
    }
    return printed.join(" | ");
  }

  private sequence(type: ts.Type, indent: string): string {
    const elements = this.checker.getTypeArguments(type as ts.TypeReference);
    const target = (type as ts.TypeReference).target;
    const readonly = this.checker.isTupleType(type)
      ? (target as ts.TupleType).readonly
      : target.symbol?.name === "ReadonlyArray";
    const prefix = readonly ? "readonly " : "";
    if (this.checker.isTupleType(type)) {
      return `${prefix}[${elements.map((element) => this.print(element, indent)).join(", ")}]`;
    }
    const element = elements[0];
    if (!element) throw new Error("an array type without an element type");
    const text = this.print(element, indent);
    const bare = element.flags & (ts.TypeFlags.Union | ts.TypeFlags.Intersection) && !/^[A-Za-z]+$/.test(text);
    return `${prefix}${bare ? `(${text})` : text}[]`;
  }

  /** The members of an object type, one a line. */
  members(type: ts.Type, indent: string): string[] {
    if (this.expanding.has(type)) throw new Error(`a recursive type: ${this.checker.typeToString(type)}`);
    if (this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) {
      throw new Error(`a function type in an operation type: ${this.checker.typeToString(type)}`);
    }
    this.expanding.add(type);
    const inner = `${indent}  `;
    const lines: string[] = [];
    for (const info of this.checker.getIndexInfosOfType(type)) {
      const key = this.print(info.keyType, inner);
      lines.push(`${inner}${info.isReadonly ? "readonly " : ""}[key: ${key}]: ${this.print(info.type, inner)};`);
    }
    for (const property of this.checker.getPropertiesOfType(type)) {
      const doc = ts.displayPartsToString(property.getDocumentationComment(this.checker)).trim();
      if (doc) lines.push(...docComment(doc, inner));
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      const propertyType = this.checker.getTypeOfSymbol(property);
      const text =
        optional && propertyType.flags & ts.TypeFlags.Union
          ? this.union((propertyType as ts.UnionType).types, inner, true)
          : this.print(propertyType, inner);
      const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
      lines.push(`${inner}${key}${optional ? "?" : ""}: ${text};`);
    }
    this.expanding.delete(type);
    return lines;
  }

  private object(type: ts.Type, indent: string): string {
    const lines = this.members(type, indent);
    return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent}}`;
  }
}

function docComment(text: string, indent: string): string[] {
  const lines = text.split("\n");
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`];
}

/** `text` as `biome check --write` leaves it (formatted, imports sorted), so `npm run lint` passes it. */
export function formatted(text: string, path: string): string {
  const result = spawnSync(
    process.execPath,
    [`${ROOT}node_modules/@biomejs/biome/bin/biome`, "check", "--write", `--stdin-file-path=${path}`],
    {
      cwd: ROOT,
      input: text,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`biome check failed: ${result.stderr}`);
  return result.stdout;
}

/** The text of `src/engine/methods/generated/operation-types.ts`, biome-formatted. */
export function renderOperationTypes(rows: readonly Operation[]): string {
  const declarations = declarationsOf(rows);
  const { checker, probe, entry } = checkerWith(probeText(declarations));
  const printer = new TypePrinter(checker, entry);
  const taken = printer.exportedNames();
  const aliases = probe.statements.filter(ts.isTypeAliasDeclaration).filter((alias) => /^T\d+$/.test(alias.name.text));
  const bodies = declarations.map((declaration, index) => {
    if (taken.has(declaration.name)) {
      throw new Error(`${declaration.name} is already a name the package exports: rename one`);
    }
    const alias = aliases[index];
    if (!alias) throw new Error(`no probe for ${declaration.name}`);
    const type = checker.getTypeAtLocation(alias.name);
    const head = docComment(declaration.doc, "").join("\n");
    const isInterface =
      type.flags & ts.TypeFlags.Object &&
      !checker.isArrayType(type) &&
      !checker.isTupleType(type) &&
      printer.print(type) !== "{}" &&
      !/^[A-Za-z]+$/.test(printer.print(type));
    if (isInterface) {
      return `${head}\nexport interface ${declaration.name} {\n${printer.members(type, "").join("\n")}\n}`;
    }
    return `${head}\nexport type ${declaration.name} = ${printer.print(type)};`;
  });
  const byMethod = rows.map((operation) => {
    if (operation.kind === "query") {
      const names = queryTypeNames(operation);
      return `  ${operation.method}: { request: ${names.request}; result: ${names.response} };`;
    }
    const names = activityTypeNames(operation);
    return `  ${operation.method}: { versions: [${names.parameters.join(", ")}]; result: ${names.result ?? "unknown"} };`;
  });
  const imports = [...printer.imports.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, names]) => `import type { ${[...names].sort().join(", ")} } from "${path}";`);
  const text = `/**
 * The parameters, results, requests and responses of the operations, written out field by field from the schemas
 * and handlers of the operation table. Generated from \`src/operations/table.ts\` by \`npm run generate:operations\`:
 * do not edit.
 *
 * @module
 */
${imports.join("\n")}

${bodies.join("\n\n")}

/**
 * The named types of each operation, by method: the parameters of each version (in the row's order) or the
 * request, and the result. \`test/docs/operation-types.test.ts\` checks them against the table's schemas.
 *
 * @internal
 */
export interface OperationTypes {
${byMethod.join("\n")}
}
`;
  return formatted(text, "src/engine/methods/generated/operation-types.ts");
}
