// npm run lint: the layers (docs/architecture.md, "Layers"). Biome keeps lib/domain pure (it imports
// only itself and zod); this keeps components to drawing what their page gives them: a component may
// name the data layer's types, never call it (queries live in lib/data, called from app/).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "components-do-not-query",
      comment: "A component draws what its page gives it; the page (app/) calls lib/data.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^lib/(data|db|db-connect|judges|server|import/run)([/.]|$)", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
