-- A label edited in a blind study after its first form (once the judges were shown) is marked, and
-- the overall verdict given blind is kept, so agreement can count first forms.
ALTER TABLE "label" ADD COLUMN "revisedAfterUnblinding" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "label" ADD COLUMN "blindOverall" "Verdict";
