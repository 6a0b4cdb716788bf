import "server-only";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { currentDb } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";

/**
 * The one Prisma client of this process (real PostgreSQL or the embedded default), or, inside a
 * scope (lib/db/scope.ts), its transaction's. Only lib/data uses it.
 */
export function db(): PrismaClient {
  return currentScope()?.prisma ?? currentDb().prisma;
}

/**
 * Holds an advisory lock until a Prisma transaction ends, so what runs in it runs one at a time.
 * The one raw query in a Prisma transaction; hand-written SQL elsewhere goes through lib/data/sql.ts.
 */
export async function lockForTransaction(tx: Prisma.TransactionClient, key: number, sub: number): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${key}, ${sub})::text`;
}
