import "server-only";
// The durable queue judge requests go through: pg-boss on the app's own database (decision 26), so
// any number of worker processes share one run through PostgreSQL, and the embedded database runs
// it in the one process that holds it. A job names a judge_request row; the row is the truth.
import PgBoss from "pg-boss";
import { currentDb } from "@/lib/db-connect";

export const queueName = (judgeId: number) => `judge-${judgeId}`;

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
  boss.on("error", (e) => console.error(`judge queue: ${e.message}`));
  await boss.start();
  return boss;
}

/** Queues requests, each once: a job carries the request id. */
export async function enqueue(boss: PgBoss, requests: ReadonlyArray<{ id: number; judgeId: number }>): Promise<void> {
  const byJudge = new Map<number, number[]>();
  for (const r of requests) byJudge.set(r.judgeId, [...(byJudge.get(r.judgeId) ?? []), r.id]);
  for (const [judgeId, ids] of byJudge) {
    await boss.createQueue(queueName(judgeId));
    for (let i = 0; i < ids.length; i += 1000)
      await boss.insert(ids.slice(i, i + 1000).map((id) => ({ name: queueName(judgeId), data: { id } })));
  }
}
