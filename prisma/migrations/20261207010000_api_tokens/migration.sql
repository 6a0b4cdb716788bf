-- Personal access tokens for the HTTP API under /api/v1 (docs/api.md). A token is shown once; only
-- its SHA-256 is stored. It belongs to a person and never does more than that person's role allows
-- now (the role is read at every request); removing the person removes their tokens.
CREATE TABLE "api_token" (
    "id" SERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "hash" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    -- The rate limit, kept on the row so it holds across processes: requests in the window that began
    -- at windowStart.
    "windowStart" TIMESTAMP(3),
    "windowCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_token_scopes_check" CHECK ("scopes" <@ ARRAY['read', 'import']::TEXT[] AND cardinality("scopes") > 0)
);
CREATE UNIQUE INDEX "api_token_hash_key" ON "api_token"("hash");
CREATE INDEX "api_token_userId_idx" ON "api_token"("userId");
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_userId_fkey" FOREIGN KEY ("userId")
  REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
