// npm run db:migrate            apply pending migrations to the configured database
// npm run db:migration -- NAME  write a new migration from schema changes (against DATABASE_URL or PGlite), then
// apply it
import { describeTarget, targetFromEnv } from "@/lib/db/connect";
import { applyMigrations, createMigration } from "@/prisma/migrate-engine";

const [cmd = "deploy", name = "migration"] = process.argv.slice(2);
const target = targetFromEnv();
try {
  if (cmd === "dev") {
    // The engine diffs against a shadow database only once the existing migrations are applied.
    await applyMigrations(target);
    const created = await createMigration(target, name);
    console.error(created ? `created prisma/migrations/${created}` : "schema unchanged: no migration written");
  } else if (cmd !== "deploy") {
    throw new Error(`unknown command "${cmd}": use deploy or dev NAME`);
  }
  const applied = await applyMigrations(target);
  console.error(`${describeTarget(target)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`);
  process.exit(0);
} catch (e) {
  console.error(`migration failed on ${describeTarget(target)}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
