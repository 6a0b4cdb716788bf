import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its wasm and data files by path; bundling it breaks that (HTTP 500, "path ... Received an instance of URL").
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter"],
  poweredByHeader: false,
};

export default config;
