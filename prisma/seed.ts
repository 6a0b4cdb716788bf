// Loads the demo study (prisma/factories.ts) through the same import path as real files.

import { createPerson, DEMO_ACCOUNTS } from "@/lib/data/people";
import { db } from "@/lib/db";
import { type RawRecord, runImport } from "@/lib/work/import/records";
import { seedDemoStudies } from "./demo-studies";
import { type DemoOptions, demoData } from "./factories";

export async function isEmpty(): Promise<boolean> {
  return (await db().trajectory.count()) === 0;
}

export async function seedDemo(options: DemoOptions = {}) {
  const data = demoData(options);
  const records: RawRecord[] = [...data.tasks, ...data.trajectories, ...data.votes, ...data.labels, ...data.gold].map(
    (value, i) => ({ line: i + 1, value }),
  );
  const outcome = await runImport(
    { fileName: "demo study (generated)", format: "interchange", source: "seed" },
    records,
  );
  if (!outcome.ok)
    throw new Error(
      `demo data rejected: ${outcome.errors.map((e) => `record ${e.line}: ${e.field ?? ""} ${e.message}`).join("; ")}`,
    );
  // An account that exists already (a second seed with --force) keeps its password.
  for (const account of DEMO_ACCOUNTS) {
    if (!(await db().user.findUnique({ where: { email: account.email }, select: { id: true } })))
      await createPerson("system", account);
  }
  const studies = await seedDemoStudies();
  return {
    ...outcome.counts,
    labels: outcome.counts.labels + studies.labels,
    gold: outcome.counts.gold + studies.gold,
    sharedReport: studies.sharedReport,
  };
}
