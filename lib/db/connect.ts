// Opens PostgreSQL (DATABASE_URL) or PGlite in a folder (decision 1), one Prisma client over either.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/generated/prisma/client";
import { type Config, config } from "@/lib/config";
import { processAlive } from "@/lib/server/recovery";

/** `timestamp` columns hold UTC; both drivers would read them, and pg write Dates, in the process's zone. */
const TIMESTAMP_OID = 1114;
const utcTimestamp = (text: string) => new Date(`${text.replace(" ", "T")}Z`);
pg.defaults.parseInputDatesAsUTC = true;
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? utcTimestamp
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export type DbTarget =
  | { kind: "postgres"; url: string }
  /** dir null: in memory (tests). */
  | { kind: "pglite"; dir: string | null };

export const DEFAULT_PGLITE_DIR = path.join(".data", "pglite");

export function targetFromEnv(settings: Pick<Config, "DATABASE_URL" | "PGLITE_DIR"> = config()): DbTarget {
  if (settings.DATABASE_URL) return { kind: "postgres", url: settings.DATABASE_URL };
  return {
    kind: "pglite",
    dir: path.resolve(/* turbopackIgnore: true */ process.cwd(), settings.PGLITE_DIR || DEFAULT_PGLITE_DIR),
  };
}

export function describeTarget(target: DbTarget): string {
  if (target.kind === "pglite")
    return target.dir ? `embedded PostgreSQL (PGlite) in ${target.dir}` : "embedded PostgreSQL (PGlite) in memory";
  const u = new URL(target.url);
  return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
}

export class DatabaseBusyError extends Error {}

/** PGlite takes one process per folder unchecked: a lock file holds the owner's pid, taken over once it is gone. */
function lockFolder(dir: string): () => void {
  const lock = `${dir}.lock`;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(fs.readFileSync(lock, "utf8").trim());
      if (owner && owner !== process.pid && processAlive(owner)) {
        throw new DatabaseBusyError(
          `The embedded database in ${dir} is open in another process (pid ${owner}: the app or another command). ` +
            "It admits one process at a time: import through the app's Import page, stop the app first, or use " +
            "PostgreSQL (DATABASE_URL).",
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  const release = () => {
    try {
      if (fs.readFileSync(lock, "utf8").trim() === String(process.pid)) fs.rmSync(lock, { force: true });
    } catch {
      /* already gone */
    }
  };
  process.once("exit", release);
  return release;
}

/** PGlite with the extensions the schema uses; `loadDataDir` restores a dumped database (tests). */
export function openPGlite(dir: string | null, loadDataDir?: Blob): PGlite {
  const release = dir ? lockFolder(dir) : () => {};
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const engine = new PGlite(dir ?? "memory://", {
    extensions: { pg_trgm },
    parsers: { [TIMESTAMP_OID]: utcTimestamp },
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const close = engine.close.bind(engine);
  engine.close = async () => {
    try {
      await close();
    } finally {
      release();
    }
  };
  return engine;
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
    // No JIT: the planner sets it off on the app's queries of tens of ms, adding most of a second (711 ms vs 51).
    const pool = new pg.Pool({
      connectionString: target.url,
      max: config().DATABASE_POOL_SIZE,
      options: "-c jit=off",
      types: pgTypes,
    });
    let ended = false;
    // An idle connection the server drops must not crash the process; the pool replaces it on next use.
    pool.on("error", (err) => {
      if (!ended) console.error(`database connection lost: ${err.message}`);
    });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      target,
      pglite: null,
      pool,
      async close() {
        await prisma.$disconnect();
        if (!ended) {
          ended = true;
          await pool.end();
        }
      },
    };
  }
  const engine = pglite ?? openPGlite(target.dir);
  // One connection for the whole process: the first transaction waits for the engine to start, past Prisma's 2 s.
  const prisma = new PrismaClient({
    adapter: new PrismaPGlite(engine),
    transactionOptions: { maxWait: 30_000, timeout: 60_000 },
  });
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

const preparedNames = new Map<string, string>();
/** How many distinct texts preparedQuery takes: a bound on what each connection keeps prepared. */
export const MAX_PREPARED_TEXTS = 64;

/** A fixed statement prepared once per pooled connection (decision 45); refuses past MAX_PREPARED_TEXTS texts. */
export async function preparedQuery<T>(pool: pg.Pool, text: string, params: unknown[]): Promise<T[]> {
  let name = preparedNames.get(text);
  if (name === undefined) {
    if (preparedNames.size >= MAX_PREPARED_TEXTS)
      throw new Error(`more than ${MAX_PREPARED_TEXTS} prepared statements: preparedQuery is for fixed texts`);
    name = `p_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return (await pool.query({ name, text, values: params })).rows as T[];
}

// The process-wide handle. Created on first use, never at import: `next build` imports server modules.
const holder = globalThis as unknown as { __shortcutAuditDb?: DbHandle };

export function currentDb(): DbHandle {
  return (holder.__shortcutAuditDb ??= connect());
}

export function setCurrentDb(handle: DbHandle | undefined): void {
  holder.__shortcutAuditDb = handle;
}

export async function closeCurrentDb(): Promise<void> {
  const h = holder.__shortcutAuditDb;
  holder.__shortcutAuditDb = undefined;
  if (h) await h.close();
}
