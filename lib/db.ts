import "server-only";
import type { PrismaClient } from "@/generated/prisma/client";
import { currentDb } from "@/lib/db-connect";

/** The one Prisma client of this process (real PostgreSQL or the embedded default). Only lib/data uses it. */
export function db(): PrismaClient {
  return currentDb().prisma;
}
