// Before the e2e server starts: the journeys' own accounts (e2e/roles.ts), on the fresh database
// scripts/e2e-server.ts made, migrated first.

import { E2E_ACCOUNTS } from "@/e2e/roles";
import { createPerson } from "@/lib/data/people";
import { closeCurrentDb, currentDb } from "@/lib/db/connect";
import { applyMigrations } from "@/prisma/migrate-engine";

const handle = currentDb();
try {
  await applyMigrations(handle.target, handle.pglite ?? undefined);
  for (const account of E2E_ACCOUNTS) await createPerson("system", account);
} finally {
  await closeCurrentDb();
}
process.exit(0);
