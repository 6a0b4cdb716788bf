// What runs of the working study (bench-mixed.ts) leave in the kept study, removed: each window
// plans a judge run over the whole study (9,000 requests on the scale-0.2 study, 54,000 a run), and
// left in place they slowed every run after (the run alone fell from about 350 to 250-290 votes/s
// over fifteen runs, docs/performance.md). Every delete goes through the tables' triggers, as the
// app's own deletes do, so the tallies stay the figures of what is left.
import { adoptPanel } from "@/lib/data/panel-set";
import { db } from "@/lib/db";
import { queueName } from "@/lib/work/judge-runs/queue";
import { openQueue } from "@/lib/work/queue";

/** The name every panel a run puts in force starts with (bench-mixed.ts). */
export const benchPanelName = (judge: string) => `mixed ${judge}`;

/**
 * Removes the judges named `prefix…` (their votes, requests, runs, queues and the panels naming
 * them) and the annotators handled `prefix…ann-…` (their labels, and their studies), after putting
 * back in force the panel adopted last before them. Returns how many judges and annotators it took.
 */
export async function forgetMixed(prefix: string): Promise<{ judges: number; annotators: number }> {
  const like = `${prefix.replace(/[\\%_]/g, "\\$&")}%`;
  const judges = await db().$queryRaw<Array<{ id: number; name: string }>>`
    SELECT id, name FROM judge WHERE name LIKE ${like}`;
  const [before] = await db().$queryRaw<Array<{ name: string }>>`
    SELECT name FROM panel WHERE "adoptedAt" IS NOT NULL AND name NOT LIKE ${benchPanelName(like)}
     ORDER BY "adoptedAt" DESC LIMIT 1`;
  if (before) await adoptPanel(null, before.name);
  if (judges.length) {
    const boss = await openQueue();
    try {
      // Its jobs first: pg-boss 10 removes a queue only when none refers to it (ON DELETE RESTRICT).
      for (const j of judges) {
        await db().$executeRaw`DELETE FROM pgboss.job WHERE name = ${queueName(j.id)}`;
        await boss.deleteQueue(queueName(j.id));
      }
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    const names = judges.map((j) => j.name);
    await db().$executeRaw`DELETE FROM panel WHERE name LIKE ${benchPanelName(like)}`;
    // A request deleted clears the votes naming it (ON DELETE SET NULL), one statement a request,
    // and no index serves it: the app never deletes requests (the 54,000 of a run took minutes).
    // One made for these deletes, and dropped after them.
    await db().$executeRaw`CREATE INDEX IF NOT EXISTS bench_forget_vote_request ON judge_vote ("requestId")`;
    try {
      await db().$executeRaw`DELETE FROM judge_run WHERE judges && ${names}::text[]`;
      await db().$executeRaw`DELETE FROM judge WHERE name = ANY(${names})`;
    } finally {
      await db().$executeRaw`DROP INDEX IF EXISTS bench_forget_vote_request`;
    }
  }
  const annotators = await db().$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "user" WHERE handle LIKE ${`${like}ann-%`}`;
  if (annotators.length) {
    const ids = annotators.map((a) => a.id);
    await db().$executeRaw`
      DELETE FROM study s WHERE EXISTS (SELECT 1 FROM study_item i JOIN study_assignment a ON a."studyItemId" = i.id
                                         WHERE i."studyId" = s.id AND a."annotatorId" = ANY(${ids}))`;
    await db().$executeRaw`DELETE FROM "user" WHERE id = ANY(${ids})`;
  }
  return { judges: judges.length, annotators: annotators.length };
}
