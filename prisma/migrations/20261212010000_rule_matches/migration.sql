-- The rules' hits kept as rows (lib/data/rule-matches.ts): the steps each rule version in force fires
-- on. Until now the list's rule filters, the rule hits by condition and the Rules page's figures each
-- scanned every text of the study, and at 150,000 trajectories that first scan outran its one-minute
-- bound (issue 31). A rule version's texts are scanned once, in short steps, in the background; an
-- import puts the trajectories it writes on rule_scan_pending, in its own transaction, so their hits
-- are written by a later step of the scan.
CREATE TABLE "rule_match" (
    "ruleId" INTEGER NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    CONSTRAINT "rule_match_pkey" PRIMARY KEY ("ruleId", "trajectoryId", "step")
);
CREATE INDEX "rule_match_trajectoryId_idx" ON "rule_match"("trajectoryId");
ALTER TABLE "rule_match" ADD CONSTRAINT "rule_match_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "rule"("id")
    ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rule_match" ADD CONSTRAINT "rule_match_trajectoryId_fkey" FOREIGN KEY ("trajectoryId")
    REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rule_scan" (
    "ruleId" INTEGER NOT NULL,
    "through" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "rule_scan_pkey" PRIMARY KEY ("ruleId")
);
ALTER TABLE "rule_scan" ADD CONSTRAINT "rule_scan_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "rule"("id")
    ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rule_scan_pending" (
    "trajectoryId" INTEGER NOT NULL,
    CONSTRAINT "rule_scan_pending_pkey" PRIMARY KEY ("trajectoryId")
);
ALTER TABLE "rule_scan_pending" ADD CONSTRAINT "rule_scan_pending_trajectoryId_fkey" FOREIGN KEY ("trajectoryId")
    REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What is kept of the hits (the filters' ids, the tables) is kept under this kind. Every write of
-- rule_match comes with one of rule_scan or rule_scan_pending (a step of the scan moves its rules'
-- `through` or takes trajectories off the list; a new rule version carries its predecessor's place),
-- so those two tables' triggers stand for it.
INSERT INTO "data_version" ("kind") VALUES ('rule_hits');
CREATE CONSTRAINT TRIGGER "rule_scan_data_version" AFTER INSERT OR UPDATE OR DELETE ON "rule_scan"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('rule_hits');
CREATE CONSTRAINT TRIGGER "rule_scan_pending_data_version" AFTER INSERT OR UPDATE OR DELETE ON "rule_scan_pending"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('rule_hits');
