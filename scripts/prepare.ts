// The first half of `npm start` (scripts/start.ts runs it as a process of its own, which exits, so its
// memory is not kept while the app serves): migrate, load the demo study into an empty database when
// wanted, rebuild missing search documents, say who can sign in. The database is closed at the end:
// the embedded PGlite folder admits one process at a time.

import { config, demoWanted } from "@/lib/config";
import { DEMO_ACCOUNTS } from "@/lib/data/demo-accounts";
import { rebuildSearchDocuments } from "@/lib/data/search-documents";
import { closeCurrentDb, currentDb, describeTarget } from "@/lib/db/connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { isEmpty, seedDemo } from "@/prisma/seed";

const settings = config();
const handle = currentDb();
// The demo study and its accounts (known passwords) load by themselves only into the embedded
// database, a single machine's; a server database gets them when asked (DEMO_DATA=on or db:seed).
const demo = demoWanted(settings, handle.target.kind);
console.error(`database: ${describeTarget(handle.target)}`);
try {
  const applied = await applyMigrations(handle.target, handle.pglite ?? undefined);
  if (applied.length) console.error(`migrations applied: ${applied.join(", ")}`);
  if (demo && (await isEmpty())) {
    const counts = await seedDemo();
    console.error(
      `empty database: demo study loaded (${counts.trajectories} trajectories, ${counts.votes} judge votes, ` +
        `${counts.labels} labels, ${counts.gold} gold labels, ${counts.taskRecords} task records)`,
    );
    console.error(
      "demo accounts: researcher@example.org / demo-researcher, annotator@example.org / demo-annotator, " +
        "reviewer@example.org / demo-reviewer",
    );
    console.error(`a shared demo report, readable signed out (shown this once): ${counts.sharedReport}`);
  }
  await rebuildSearchDocuments((line) => console.error(line));
  await warnOfDemoAccounts();
  if ((await handle.prisma.account.count({ where: { providerId: "credential" } })) === 0) {
    console.error(
      "nobody can sign in yet: make a researcher with `npm run cli -- user add --handle NAME --email EMAIL " +
        "--role researcher` (stop the app first on the embedded database)",
    );
  }
} catch (e) {
  console.error(`could not prepare ${describeTarget(handle.target)}: ${e instanceof Error ? e.message : String(e)}`);
  if (handle.target.kind === "pglite")
    console.error(
      "If another Shortcut Audit process (the app or an import) has this folder open, stop it first: the " +
        "embedded database admits one process at a time.",
    );
  process.exit(1);
} finally {
  await closeCurrentDb();
}

/** On a server database, demo accounts that can still sign in with their published passwords are named loudly. */
async function warnOfDemoAccounts() {
  if (handle.target.kind !== "postgres") return;
  const emails = DEMO_ACCOUNTS.map((a) => a.email);
  const live = await handle.prisma.user.findMany({
    where: { email: { in: emails }, accounts: { some: { providerId: "credential" } } },
    select: { email: true },
  });
  if (!live.length) return;
  const bar = "!".repeat(100);
  console.error(
    `${bar}\n!! WARNING: this PostgreSQL database has the demo accounts, whose passwords are in the README:` +
      `\n!!   ${live.map((u) => u.email).join(", ")}` +
      `\n!! Anyone who can reach this server can sign in as them. Set new passwords in their rows on the People page` +
      `\n!! (or npm run cli -- user password --handle H) before others can reach the app.\n${bar}`,
  );
}

process.exit(0);
