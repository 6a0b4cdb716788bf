import "server-only";
import { currentDb } from "@/lib/db/connect";
import { statement } from "./sql";

export async function getHealth(): Promise<{ ok: boolean; database: "postgres" | "pglite"; error?: string }> {
  const database = currentDb().target.kind;
  try {
    await statement("SELECT 1");
    return { ok: true, database };
  } catch {
    // The cause goes to the server log, not to the caller.
    console.error("health check: database unreachable");
    return { ok: false, database, error: "database unreachable" };
  }
}
