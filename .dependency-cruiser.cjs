/**
 * The layering rule of src/, checked in CI (`npm run lint:layers`, run by .ci/run). Folders are listed lowest first: a folder
 * may import its own layer's modules and those of the layers before it, never one after it, not even for a type.
 * Where a lower layer needs something from above, it declares the interface and the higher layer passes the
 * implementation in. docs/architecture.md explains each layer.
 */
const LAYERS = [
  ["common"],
  ["crypto"],
  ["policy"],
  ["storage"],
  ["model"],
  ["keys"],
  ["messages"],
  ["chains"],
  ["auth"],
  ["webhooks"],
  ["contract"],
  ["domain"],
  ["operations"],
  ["engine"],
  ["http"],
  ["auth-proxy"],
  ["frames"],
  ["devserver"],
  ["cli", "testing"],
];

const folders = (names) => `^src/(${names.join("|")})/`;

const layerRules = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).flat();
  const siblings = layer.length > 1 ? layer : [];
  return [
    ...(above.length > 0
      ? [
          {
            name: `layer-${layer.join("-")}`,
            comment: `${layer.join(", ")} may not import a later layer (${above.join(", ")})`,
            severity: "error",
            from: { path: folders(layer) },
            to: { path: folders(above) },
          },
        ]
      : []),
    ...siblings.map((name) => ({
      name: `layer-${name}-sibling`,
      comment: `${name} may not import its sibling in the same layer`,
      severity: "error",
      from: { path: `^src/${name}/` },
      to: { path: folders(siblings.filter((other) => other !== name)) },
    })),
  ];
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules may not import each other in a circle, not even through types.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "entry-points-only-from-outside",
      comment: "src/index.ts and src/cli.ts are entry points: nothing in src/ imports them.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/(index|cli|http)\\.ts$" },
    },
    {
      name: "every-module-in-a-layer",
      comment: "Every module of src/ below its entry points lives in one of the layers' folders.",
      severity: "error",
      from: { path: "^src/[^/]+\\.ts$", pathNot: "^src/(index|cli|http)\\.ts$" },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|dist|test|bench|scripts|examples)/" },
  },
};
