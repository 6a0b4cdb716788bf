-- Sets of trajectory ids too long to send as parameters (PostgreSQL takes at most 65,535 a
-- statement): a list filter matching most of 150,000 trajectories writes its ids here once, under a
-- key naming its content, and the list's query joins them (lib/data/trajectory-ids.ts). Sets not
-- used for an hour are deleted when another is written.
CREATE TABLE "id_set" (
    "key" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "size" INTEGER NOT NULL,
    CONSTRAINT "id_set_pkey" PRIMARY KEY ("key")
);

CREATE TABLE "id_set_member" (
    "key" TEXT NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    CONSTRAINT "id_set_member_pkey" PRIMARY KEY ("key", "trajectoryId")
);
CREATE INDEX "id_set_member_trajectoryId_idx" ON "id_set_member"("trajectoryId");

ALTER TABLE "id_set_member" ADD CONSTRAINT "id_set_member_key_fkey" FOREIGN KEY ("key") REFERENCES "id_set"("key") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "id_set_member" ADD CONSTRAINT "id_set_member_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;
