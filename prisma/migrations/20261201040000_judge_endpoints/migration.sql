-- Judges the app can ask itself: an OpenAI-compatible endpoint, a model, the name of the
-- environment variable with the key (never the key), settings and prices. Judges known only from
-- imported votes have none. And the judge prompt, every version kept.
ALTER TABLE "judge" ADD COLUMN "baseUrl" TEXT;
ALTER TABLE "judge" ADD COLUMN "model" TEXT;
ALTER TABLE "judge" ADD COLUMN "apiKeyEnv" TEXT;
ALTER TABLE "judge" ADD COLUMN "temperature" DOUBLE PRECISION;
ALTER TABLE "judge" ADD COLUMN "maxTokens" INTEGER;
ALTER TABLE "judge" ADD COLUMN "concurrency" INTEGER NOT NULL DEFAULT 4;
ALTER TABLE "judge" ADD COLUMN "requestsPerMinute" INTEGER;
ALTER TABLE "judge" ADD COLUMN "contextTokens" INTEGER NOT NULL DEFAULT 100000;
ALTER TABLE "judge" ADD COLUMN "priceInPerMillion" DOUBLE PRECISION;
ALTER TABLE "judge" ADD COLUMN "priceOutPerMillion" DOUBLE PRECISION;

CREATE TABLE "judge_prompt" (
    "version" SERIAL NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "judge_prompt_pkey" PRIMARY KEY ("version")
);
