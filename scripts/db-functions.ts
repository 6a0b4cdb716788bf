// npm run db:functions: writes prisma/sql/ (one file per function and trigger) from a database
// migrated afresh in memory (embedded PostgreSQL), the files as they stand applied after the
// migrations. Run it after changing a file, to write it in the catalog's own form, or after a migration.
import fs from "node:fs";
import path from "node:path";
import { databaseCode } from "@/lib/data/db-functions";
import { openPGlite } from "@/lib/db/connect";
import { applyMigrations } from "@/prisma/migrate-engine";

const engine = openPGlite(null);
await applyMigrations({ kind: "pglite", dir: null }, engine);
const files = await databaseCode({ query: async (q: string) => (await engine.query(q)).rows as never });
const root = path.join(import.meta.dirname, "..", "prisma", "sql");
for (const dir of ["functions", "triggers"]) {
  fs.rmSync(path.join(root, dir), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, dir), { recursive: true });
}
for (const f of files) fs.writeFileSync(path.join(root, f.path), f.text);
await engine.close();
console.log(`wrote ${files.length} files in ${path.relative(process.cwd(), root)}`);
