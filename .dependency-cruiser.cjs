// npm run lint: the layers of docs/architecture.md ("Layers"), lowest first. A folder imports only
// the folders below it (tests may import anything); no module imports itself by a circle. Biome
// keeps lib/domain pure besides (it imports only itself and zod).
const LAYERS = [
  ["domain", "^lib/domain/"],
  ["base", "^lib/(config|errors)\\.ts$"],
  ["server", "^lib/server/"],
  ["db", "^lib/db/"],
  ["formats", "^lib/formats/"],
  ["judges", "^lib/judges/"],
  ["auth", "^lib/auth/"],
  ["data", "^lib/data/"],
  ["work", "^lib/work/"],
  ["api", "^lib/api/"],
  ["web", "^lib/web/"],
];
const OURS = "^(lib|app|components|scripts|prisma|e2e|test)/|^(proxy|instrumentation)\\.ts$";
const TESTS = "\\.test\\.tsx?$";
const anyOf = (paths) => paths.join("|");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules import one another in one direction only.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...LAYERS.map(([name, path], i) => ({
      name: `layer-${name}`,
      comment: `${name} imports only the layers below it: ${
        LAYERS.slice(0, i)
          .map(([n]) => n)
          .join(", ") || "none"
      }.`,
      severity: "error",
      from: { path, pathNot: TESTS },
      to: { path: OURS, pathNot: anyOf([...LAYERS.slice(0, i + 1).map(([, p]) => p), "^generated/"]) },
    })),
    {
      name: "components-draw",
      comment: "A component draws what its page gives it: it may name the data layer's types, never call it.",
      severity: "error",
      from: { path: "^components/", pathNot: TESTS },
      to: {
        path: OURS,
        pathNot: anyOf(["^components/", "^lib/(domain|formats)/", "^lib/(config|errors)\\.ts$"]),
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "app-is-served",
      comment: "Pages and routes use lib/ and components/, never scripts, tests or fixtures.",
      severity: "error",
      from: { path: "^(app/|proxy\\.ts|instrumentation\\.ts)", pathNot: TESTS },
      to: { path: "^(scripts|e2e|test|prisma)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
