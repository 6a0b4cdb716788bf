import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { seedDemo } from "@/prisma/seed";
import { getAgreement } from "./agreement";
import { categoriesInUse } from "./categories";
import { dataFingerprint } from "./frozen-reports";
import { getResults } from "./results";
import { compactTallies } from "./tallies";
import { getTrajectory } from "./trajectory";

// Migration 20261220010000 moves the four verdict columns of votes, labels, gold labels and the panel into
// maps by category, and the tallies' four column pairs into rows. A database as it stood before (the
// columns put back from the maps, here) keeps exactly its figures after it.
const MIGRATION = path.join(
  import.meta.dirname,
  "../../prisma/migrations/20261220010000_verdicts_by_category/migration.sql",
);
const FOUR = [
  ["UPSTREAM", "upstream", `"panelUpstream"`, "upstream"],
  ["LOCAL_GIT", `"localGit"`, `"panelLocalGit"`, "local_git"],
  ["MEMORY", "memory", `"panelMemory"`, "memory"],
  ["OTHER", "other", `"panelOther"`, "other"],
] as const;

/** The schema as it stood before the migration, with every row's verdicts where they were then. */
const BEFORE = [
  ...["judge_vote", "label", "gold_label"].flatMap((table) => [
    `ALTER TABLE ${table} ${FOUR.map(([, col]) => `ADD COLUMN ${col} "Verdict"`).join(", ")}`,
    `ALTER TABLE ${table} DISABLE TRIGGER USER`,
    `UPDATE ${table} SET ${FOUR.map(([key, col]) => `${col} = (verdicts->>'${key}')::"Verdict"`).join(", ")}`,
    `ALTER TABLE ${table} ENABLE TRIGGER USER`,
    `ALTER TABLE ${table} ${FOUR.map(([, col]) => `ALTER COLUMN ${col} SET NOT NULL`).join(", ")},
       DROP COLUMN verdicts`,
  ]),
  `ALTER TABLE trajectory ${FOUR.map(([, , col]) => `ADD COLUMN ${col} "Verdict"`).join(", ")}`,
  `ALTER TABLE trajectory DISABLE TRIGGER USER`,
  `UPDATE trajectory SET ${FOUR.map(([key, , col]) => `${col} = ("panelCategories"->>'${key}')::"Verdict"`).join(
    ", ",
  )}`,
  `ALTER TABLE trajectory ENABLE TRIGGER USER`,
  `ALTER TABLE trajectory DROP COLUMN "panelCategories"`,
  `ALTER TABLE result_tally ${FOUR.flatMap(([, , , c]) => [
    `ADD COLUMN ${c}_a int NOT NULL DEFAULT 0`,
    `ADD COLUMN ${c}_s int NOT NULL DEFAULT 0`,
  ]).join(", ")}`,
  `UPDATE result_tally r SET ${FOUR.flatMap(([key, , , c]) =>
    (["a", "s"] as const).map(
      (s) => `${c}_${s} = coalesce((SELECT ${s === "a" ? "attempts" : "successes"} FROM result_category_tally k
        WHERE k.base AND k.category = '${key}' AND (k."benchmarkId", k."modelId", k.network, k.prompt)
          = (r."benchmarkId", r."modelId", r.network, r.prompt)), 0)`,
    ),
  ).join(", ")}`,
  `DROP TABLE result_category_tally`,
  `ALTER TABLE judge_prompt DROP COLUMN categories`,
  `ALTER TABLE study DROP COLUMN categories`,
];

describe("the migration to verdicts by category", () => {
  it("keeps every figure of a database as it stood before", async () => {
    await seedDemo({ tasksPerBenchmark: 2, labelled: 12 });
    const someId = (await db().trajectory.findFirstOrThrow({ where: { voteCount: 3 }, select: { id: true } })).id;
    const figures = async () => ({
      results: await getResults(),
      agreement: await getAgreement(),
      fingerprint: await dataFingerprint(),
      categories: (await categoriesInUse()).map((c) => [c.key, c.votes, c.labels, c.gold]),
      trajectory: (await getTrajectory(someId))!.votes.map((v) => [v.judge, v.verdicts, v.overall]),
    });
    await compactTallies("results");
    const before = await figures();
    // Judged trajectories gave a verdict in each of the four: every category's count is the judged count.
    expect(before.results[0]!.categories.map((c) => c.judged)).toEqual(Array(4).fill(before.results[0]!.row.judged));
    for (const statement of BEFORE) await db().$executeRawUnsafe(statement);
    for (const statement of fs
      .readFileSync(MIGRATION, "utf8")
      .replace(/--[^\n]*\n/g, "\n")
      .split(";")
      .filter((s) => s.trim()))
      await db().$executeRawUnsafe(statement);
    expect(await figures()).toEqual(before);
  });
});
