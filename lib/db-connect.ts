// Opens the app's database: real PostgreSQL when DATABASE_URL is set, otherwise the embedded
// PGlite (real PostgreSQL compiled to wasm) in a folder. One code path for both: the same Prisma
// client, only the driver adapter differs. Shared by the Next app (lib/db.ts), the scripts and the
// tests, so it must not import "server-only".
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/generated/prisma/client";

export type DbTarget =
  | { kind: "postgres"; url: string }
  /** dir null: in memory (tests). */
  | { kind: "pglite"; dir: string | null };

export const DEFAULT_PGLITE_DIR = path.join(".data", "pglite");

export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): DbTarget {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "pglite", dir: path.resolve(/* turbopackIgnore: true */ process.cwd(), env.PGLITE_DIR || DEFAULT_PGLITE_DIR) };
}

export function describeTarget(target: DbTarget): string {
  if (target.kind === "pglite") return target.dir ? `embedded PostgreSQL (PGlite) in ${target.dir}` : "embedded PostgreSQL (PGlite) in memory";
  const u = new URL(target.url);
  return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
}

/** PGlite with the extensions the schema uses; `loadDataDir` restores a dumped database (tests). */
export function openPGlite(dir: string | null, loadDataDir?: Blob): PGlite {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  return new PGlite(dir ?? "memory://", { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
}

export type DbHandle = {
  prisma: PrismaClient;
  target: DbTarget;
  /** The embedded engine, when embedded: raw SQL and COPY go through it. */
  pglite: PGlite | null;
  /** The connection pool, when PostgreSQL: shared by Prisma and the importer's raw SQL and COPY. */
  pool: pg.Pool | null;
  close(): Promise<void>;
};

export function connect(target: DbTarget = targetFromEnv(), pglite?: PGlite): DbHandle {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    let ended = false;
    return {
      prisma, target, pglite: null, pool,
      async close() {
        await prisma.$disconnect();
        if (!ended) { ended = true; await pool.end(); }
      },
    };
  }
  const engine = pglite ?? openPGlite(target.dir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(engine) });
  return {
    prisma,
    target,
    pglite: engine,
    pool: null,
    // PGlite keeps the process alive until it is closed, $disconnect alone is not enough.
    async close() {
      await prisma.$disconnect();
      if (!engine.closed) await engine.close();
    },
  };
}

// The process-wide handle. Created on first use, never at import: `next build` imports server modules.
const holder = globalThis as unknown as { __shortcutAuditDb?: DbHandle };

export function currentDb(): DbHandle {
  return (holder.__shortcutAuditDb ??= connect());
}

/** Replace the process-wide handle (tests give each file its own database). */
export function setCurrentDb(handle: DbHandle | undefined): void {
  holder.__shortcutAuditDb = handle;
}

export async function closeCurrentDb(): Promise<void> {
  const h = holder.__shortcutAuditDb;
  holder.__shortcutAuditDb = undefined;
  if (h) await h.close();
}
