-- Verdicts by category as data (issue 64, decision 52): a vote, label or gold label gives a verdict
-- for each category it names (key → verdict); a key it does not name has no verdict from it. The
-- four columns move into one map each, and so do the panel's on the trajectory and the result
-- tallies' per-category counts (now one row a category). Triggers are off while the rows move:
-- no figure changes, so no version moves.
ALTER TABLE "judge_vote" ADD COLUMN "verdicts" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "label" ADD COLUMN "verdicts" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "gold_label" ADD COLUMN "verdicts" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "trajectory" ADD COLUMN "panelCategories" JSONB NOT NULL DEFAULT '{}';

ALTER TABLE "judge_vote" DISABLE TRIGGER USER;
ALTER TABLE "label" DISABLE TRIGGER USER;
ALTER TABLE "gold_label" DISABLE TRIGGER USER;
ALTER TABLE "trajectory" DISABLE TRIGGER USER;
UPDATE "judge_vote" SET "verdicts" = jsonb_build_object('UPSTREAM', "upstream", 'LOCAL_GIT', "localGit",
  'MEMORY', "memory", 'OTHER', "other");
UPDATE "label" SET "verdicts" = jsonb_build_object('UPSTREAM', "upstream", 'LOCAL_GIT', "localGit",
  'MEMORY', "memory", 'OTHER', "other");
UPDATE "gold_label" SET "verdicts" = jsonb_build_object('UPSTREAM', "upstream", 'LOCAL_GIT', "localGit",
  'MEMORY', "memory", 'OTHER', "other");
UPDATE "trajectory" SET "panelCategories" = jsonb_strip_nulls(jsonb_build_object('UPSTREAM', "panelUpstream",
  'LOCAL_GIT', "panelLocalGit", 'MEMORY', "panelMemory", 'OTHER', "panelOther"))
  WHERE "panelVerdict" IS NOT NULL;
ALTER TABLE "judge_vote" ENABLE TRIGGER USER;
ALTER TABLE "label" ENABLE TRIGGER USER;
ALTER TABLE "gold_label" ENABLE TRIGGER USER;
ALTER TABLE "trajectory" ENABLE TRIGGER USER;

ALTER TABLE "judge_vote" DROP COLUMN "upstream", DROP COLUMN "localGit", DROP COLUMN "memory", DROP COLUMN "other";
ALTER TABLE "label" DROP COLUMN "upstream", DROP COLUMN "localGit", DROP COLUMN "memory", DROP COLUMN "other";
ALTER TABLE "gold_label" DROP COLUMN "upstream", DROP COLUMN "localGit", DROP COLUMN "memory", DROP COLUMN "other";
ALTER TABLE "trajectory" DROP COLUMN "panelUpstream", DROP COLUMN "panelLocalGit", DROP COLUMN "panelMemory",
  DROP COLUMN "panelOther";

-- Per condition and category: trajectories with a panel verdict in it (judged), attempts, successes.
CREATE TABLE "result_category_tally" (
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "category" TEXT NOT NULL,
    "base" BOOLEAN NOT NULL DEFAULT false,
    "judged" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL,
    "successes" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "result_category_tally_base" ON "result_category_tally" ("benchmarkId", "modelId", "network",
  "prompt", "category") WHERE "base";
ALTER TABLE "result_category_tally" SET (vacuum_truncate = false);
-- Every trajectory judged before had a verdict in each of the four.
INSERT INTO "result_category_tally" SELECT r."benchmarkId", r."modelId", r.network, r.prompt, c.key, r.base,
  r.judged, c.a, c.s
  FROM "result_tally" r, LATERAL (VALUES ('UPSTREAM', r.upstream_a, r.upstream_s),
    ('LOCAL_GIT', r.local_git_a, r.local_git_s), ('MEMORY', r.memory_a, r.memory_s),
    ('OTHER', r.other_a, r.other_s)) AS c(key, a, s)
  WHERE r.judged <> 0 OR c.a <> 0 OR c.s <> 0;
ALTER TABLE "result_tally" DROP COLUMN "upstream_a", DROP COLUMN "upstream_s", DROP COLUMN "local_git_a",
  DROP COLUMN "local_git_s", DROP COLUMN "memory_a", DROP COLUMN "memory_s", DROP COLUMN "other_a",
  DROP COLUMN "other_s";

-- The categories a prompt version asks, in order: every version so far asked the built-in ones.
ALTER TABLE "judge_prompt" ADD COLUMN "categories" TEXT[] NOT NULL DEFAULT '{}';
UPDATE "judge_prompt" SET "categories" = ARRAY(SELECT "key" FROM "category" WHERE "rank" < 1000 ORDER BY "rank");

-- The categories a study's forms ask: those of the panel in force when it was made (the built-in ones so far).
ALTER TABLE "study" ADD COLUMN "categories" TEXT[] NOT NULL DEFAULT '{}';
UPDATE "study" SET "categories" = ARRAY(SELECT "key" FROM "category" WHERE "rank" < 1000 ORDER BY "rank");
