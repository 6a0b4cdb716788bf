-- The panel is the study's choice (docs/formats.md, "The panel").

-- A judge's answers under each prompt version are all kept: a vote names the version it answered
-- (0: imported), and a new version's answer no longer replaces an older one's.
ALTER TABLE "judge_vote" ADD COLUMN "promptVersion" INTEGER NOT NULL DEFAULT 0;
UPDATE "judge_vote" v SET "promptVersion" = r."promptVersion"
  FROM "judge_request" r WHERE r.id = v."requestId";
DROP INDEX "judge_vote_trajectoryId_judgeId_key";
CREATE UNIQUE INDEX "judge_vote_trajectoryId_judgeId_promptVersion_key"
  ON "judge_vote"("trajectoryId", "judgeId", "promptVersion");
-- Whether the panel in force counts the vote: derived with the trajectory's panel columns
-- (lib/data/derived.ts). Every vote counts under the initial panel below.
ALTER TABLE "judge_vote" ADD COLUMN "counted" BOOLEAN NOT NULL DEFAULT false;
UPDATE "judge_vote" SET "counted" = true;

-- A panel: a named list of judges, each at a prompt version (0: its imported votes). The one in
-- force is the one adopted last; `automatic` marks the first, which imported judges join until a
-- researcher sets one.
CREATE TABLE "panel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "automatic" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "adoptedAt" TIMESTAMP(3),
    "adoptedById" TEXT,
    CONSTRAINT "panel_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "panel_name_key" ON "panel"("name");
ALTER TABLE "panel" ADD CONSTRAINT "panel_createdById_fkey" FOREIGN KEY ("createdById")
  REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "panel" ADD CONSTRAINT "panel_adoptedById_fkey" FOREIGN KEY ("adoptedById")
  REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "panel_member" (
    "panelId" INTEGER NOT NULL,
    "judgeId" INTEGER NOT NULL,
    "promptVersion" INTEGER NOT NULL,
    CONSTRAINT "panel_member_pkey" PRIMARY KEY ("panelId", "judgeId", "promptVersion")
);
ALTER TABLE "panel_member" ADD CONSTRAINT "panel_member_panelId_fkey" FOREIGN KEY ("panelId")
  REFERENCES "panel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panel_member" ADD CONSTRAINT "panel_member_judgeId_fkey" FOREIGN KEY ("judgeId")
  REFERENCES "judge"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The panel in force starts as every judge at every version it has votes for, so an existing
-- database keeps exactly its figures (each trajectory had one vote a judge).
INSERT INTO "panel" ("name", "automatic", "adoptedAt") VALUES ('initial', true, CURRENT_TIMESTAMP);
INSERT INTO "panel_member" ("panelId", "judgeId", "promptVersion")
  SELECT DISTINCT p.id, v."judgeId", v."promptVersion" FROM "judge_vote" v, "panel" p WHERE p.name = 'initial';

CREATE CONSTRAINT TRIGGER "panel_data_version" AFTER INSERT OR UPDATE OR DELETE ON "panel"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('votes');
CREATE CONSTRAINT TRIGGER "panel_member_data_version" AFTER INSERT OR UPDATE OR DELETE ON "panel_member"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version('votes');
