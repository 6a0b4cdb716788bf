-- A rule version whose scan ran past its time limit is marked so, with why (issue 61): the scan never
-- reads it again (before, a slow pattern's steps failed and began again without end), timelines and
-- frozen reports leave it out and say so, and the Rules page names it. Disabled versions are no
-- longer scanned at all: what was kept of them goes.
ALTER TABLE "rule_scan" ADD COLUMN "failure" TEXT;
ALTER TABLE "rule_scan" ADD COLUMN "failedAt" TIMESTAMP(3);
DELETE FROM "rule_match" WHERE "ruleId" IN (SELECT id FROM "rule" WHERE NOT enabled);
DELETE FROM "rule_scan" WHERE "ruleId" IN (SELECT id FROM "rule" WHERE NOT enabled);
