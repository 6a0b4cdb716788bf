// npm start: migrate, load the demo study into an empty database, then serve the built app.
// The database is closed before Next starts: the embedded PGlite folder admits one process at a time.
import { spawn } from "node:child_process";
import { closeCurrentDb, currentDb, describeTarget } from "@/lib/db-connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { isEmpty, seedDemo } from "@/prisma/seed";
import { rebuildSearchDocuments } from "@/lib/data/search-documents";

const port = process.env.PORT || "3000";
const handle = currentDb();
console.error(`database: ${describeTarget(handle.target)}`);
try {
  const applied = await applyMigrations(handle.target, handle.pglite ?? undefined);
  if (applied.length) console.error(`migrations applied: ${applied.join(", ")}`);
  if (process.env.DEMO_DATA !== "off" && (await isEmpty())) {
    const counts = await seedDemo();
    console.error(`empty database: demo study loaded (${counts.trajectories} trajectories, ${counts.votes} judge votes, ${counts.labels} labels)`);
    console.error("demo accounts: researcher@example.org / demo-researcher, annotator@example.org / demo-annotator, reviewer@example.org / demo-reviewer");
  }
  await rebuildSearchDocuments((line) => console.error(line));
  if ((await handle.prisma.account.count({ where: { providerId: "credential" } })) === 0) {
    console.error("nobody can sign in yet: make a researcher with `npm run cli -- user add --handle NAME --email EMAIL --role researcher` (stop the app first on the embedded database)");
  }
} catch (e) {
  console.error(`could not prepare ${describeTarget(handle.target)}: ${e instanceof Error ? e.message : String(e)}`);
  if (handle.target.kind === "pglite") console.error("If another Shortcut Audit process (the app or an import) has this folder open, stop it first: the embedded database admits one process at a time.");
  process.exit(1);
} finally {
  await closeCurrentDb();
}

const next = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", port], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => next.kill(signal));
next.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
