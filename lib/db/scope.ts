import "server-only";
// A scope whose queries all run in one transaction its caller holds, to compute under another panel (decision 34).
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "@/generated/prisma/client";

/** The transaction's two faces: Prisma's client, and the Sql of lib/data/sql.ts. */
export type Scope = { prisma: PrismaClient; sql: unknown };

const scopes = new AsyncLocalStorage<Scope>();

export const currentScope = (): Scope | undefined => scopes.getStore();
export const inScope = <T>(scope: Scope, fn: () => Promise<T>): Promise<T> => scopes.run(scope, fn);
/** Runs fn outside any scope: work that must not write into a transaction another caller holds. */
export const outsideScope = <T>(fn: () => Promise<T>): Promise<T> => scopes.exit(fn);
