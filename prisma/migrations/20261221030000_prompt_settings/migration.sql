-- How a prompt version asks its judges (reasoning sent, outputs cut, cohorts): part of the version.
ALTER TABLE "judge_prompt" ADD COLUMN "settings" JSONB NOT NULL DEFAULT '{}';
