// npm run db:seed [-- --force]: loads the demo study when the database is empty (or always, with --force).
import { closeCurrentDb, currentDb, describeTarget } from "@/lib/db/connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { isEmpty, seedDemo } from "@/prisma/seed";

const handle = currentDb();
try {
  await applyMigrations(handle.target, handle.pglite ?? undefined);
  if (process.argv.includes("--force") || (await isEmpty())) {
    const counts = await seedDemo();
    console.error(
      `${describeTarget(handle.target)}: demo study loaded (${counts.trajectories} trajectories, ` +
        `${counts.votes} judge votes, ${counts.labels} labels, ${counts.taskRecords} task records)`,
    );
  } else {
    console.error(`${describeTarget(handle.target)}: not empty, demo study not loaded (use --force to load it anyway)`);
  }
} finally {
  await closeCurrentDb();
}
// The wasm schema engine leaves a timer behind; nothing else is pending once the database is closed.
process.exit(0);
