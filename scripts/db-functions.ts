// npm run db:functions: writes prisma/functions.sql, the database's functions as every migration
// leaves them, from a database migrated afresh in memory (embedded PostgreSQL): run it after a
// migration that changes one.
import fs from "node:fs";
import path from "node:path";
import { functionsSql } from "@/lib/data/db-functions";
import { openPGlite } from "@/lib/db-connect";
import { applyMigrations } from "@/prisma/migrate-engine";

const engine = openPGlite(null);
await applyMigrations({ kind: "pglite", dir: null }, engine);
const text = await functionsSql({ query: async (q: string) => (await engine.query(q)).rows as never });
const out = path.join(import.meta.dirname, "..", "prisma", "functions.sql");
fs.writeFileSync(out, text);
await engine.close();
console.log(`wrote ${path.relative(process.cwd(), out)} (${text.length} characters)`);
