import "server-only";
import type { PrismaClient } from "@/generated/prisma/client";
import { currentDb } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";

/**
 * The one Prisma client of this process (real PostgreSQL or the embedded default), or, inside a
 * scope (lib/db/scope.ts), its transaction's. Only lib/data uses it.
 */
export function db(): PrismaClient {
  return currentScope()?.prisma ?? currentDb().prisma;
}
