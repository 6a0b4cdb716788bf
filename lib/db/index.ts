import "server-only";
import type { Prisma, PrismaClient } from "@/generated/prisma/client";
import { currentDb } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";

/** The process's Prisma client, or inside a scope (scope.ts) its transaction's. Only lib/data uses it. */
export function db(): PrismaClient {
  return currentScope()?.prisma ?? currentDb().prisma;
}

/** Holds an advisory lock until a Prisma transaction ends: the one raw query in one (decision 51). */
export async function lockForTransaction(tx: Prisma.TransactionClient, key: number, sub: number): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${key}, ${sub})::text`;
}
