import { defineConfig } from "prisma/config";

// Prisma 7 keeps the connection URL here, not in schema.prisma. It is only needed by Prisma CLI
// commands that talk to a database; migrations go through scripts/migrate.ts instead, and
// `env("DATABASE_URL")` would throw when the variable is unset (the embedded default).
export default defineConfig({
  schema: "prisma/schema.prisma",
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
