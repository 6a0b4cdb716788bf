-- What the readers found in each import (assistant turns, tool calls) and their warnings.
ALTER TABLE "import" ADD COLUMN "assistantTurns" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "import" ADD COLUMN "toolCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "import" ADD COLUMN "warnings" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "import" ADD COLUMN "warningCount" INTEGER NOT NULL DEFAULT 0;
