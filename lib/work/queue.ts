import "server-only";
// The app's job queue: pg-boss on the app's database (decision 26).
import PgBoss from "pg-boss";
import { currentDb } from "@/lib/db/connect";

/** A pg-boss started on the current database (its own schema, `pgboss`). */
export async function openQueue(): Promise<PgBoss> {
  const handle = currentDb();
  const engine = handle.pglite;
  const boss = engine
    ? new PgBoss({
        schema: "pgboss",
        db: {
          // pg-boss sends its schema as several statements without parameters: those go through exec.
          async executeSql(text: string, values?: unknown[]) {
            if (values?.length) return engine.query(text, values as never[]);
            const results = await engine.exec(text);
            return { rows: results.at(-1)?.rows ?? [] };
          },
        },
      })
    : new PgBoss({ connectionString: (handle.target as { url: string }).url, schema: "pgboss", max: 4 });
  boss.on("error", (e) => console.error(`job queue: ${e.message}`));
  await boss.start();
  return boss;
}

const holder = globalThis as unknown as { __shortcutAuditQueue?: Promise<PgBoss> };

/** This process's queue, started once (a failed start is tried again by the next caller). */
export function appQueue(): Promise<PgBoss> {
  holder.__shortcutAuditQueue ??= openQueue().catch((e) => {
    holder.__shortcutAuditQueue = undefined;
    throw e;
  });
  return holder.__shortcutAuditQueue;
}

let creating: Promise<unknown> = Promise.resolve();

/** Creates a queue if missing, one at a time in the process: two created at once deadlock (partitions). */
export function ensureQueue(boss: PgBoss, queue: string, options?: PgBoss.Queue): Promise<void> {
  const made = creating.then(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return void (await boss.createQueue(queue, options));
      } catch (e) {
        const deadlock = (e as { code?: string }).code === "40P01" || /deadlock detected/.test(String(e));
        if (!deadlock || attempt === 5) throw e;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  });
  creating = made.catch(() => {});
  return made;
}
