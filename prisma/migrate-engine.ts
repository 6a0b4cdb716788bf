// Applies and creates migrations with Prisma's schema engine compiled to wasm, through the same
// driver adapters the app uses. The Prisma CLI cannot migrate on these machines: it downloads a
// native engine first. Migrations keep Prisma's own format (prisma/migrations/<name>/migration.sql)
// and its `_prisma_migrations` table, so the CLI can take over wherever it runs.

import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import pg from "pg";
import { parse } from "pg-connection-string";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type DbTarget, openPGlite } from "@/lib/db/connect";

const ROOT = path.resolve(import.meta.dirname, "..");
const SCHEMA_PATH = path.join(ROOT, "prisma", "schema.prisma");
const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");
const SQL_DIR = path.join(ROOT, "prisma", "sql");
const FILTERS = { externalTables: [], externalEnums: [] };

type Engine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  devDiagnostic(input: unknown): Promise<{ action: { tag: string; reason?: string } }>;
  createMigration(input: unknown): Promise<{
    migrationScript: string | null;
    generatedMigrationName: string;
    extension: string;
    connectorType: string;
  }>;
};

let wasmReady: Promise<typeof import("@prisma/schema-engine-wasm/schema_engine_bg")> | undefined;
function loadWasm() {
  return (wasmReady ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const file = path.join(
      path.dirname(createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    (bg as unknown as { __wbg_set_wasm(e: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })());
}

// adapter-pg cannot read columns of type "char" (OID 18), which the engine's catalogue queries
// return; reading them as text is exact. Patched once, in processes that migrate.
let oidPatched = false;
function patchCharOid() {
  if (oidPatched) return;
  oidPatched = true;
  for (const proto of [pg.Pool.prototype, pg.Client.prototype] as Array<{ query: (...a: unknown[]) => unknown }>) {
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const r = query.apply(this, args) as { then?: unknown } | undefined;
      if (r && typeof r.then === "function") {
        return (r as Promise<{ fields?: Array<{ dataTypeID: number }> }>).then((res) => {
          res?.fields?.forEach((f) => {
            if (f.dataTypeID === 18) f.dataTypeID = 25;
          });
          return res;
        });
      }
      return r;
    };
  }
}

/**
 * adapter-pg runs a migration by splitting its script at every semicolon, which breaks a DO block
 * (and a semicolon in a comment). The native engine sends the script whole, as one simple query,
 * which PostgreSQL runs as one implicit transaction: so does this.
 */
function wholeScripts<A extends object>(adapter: A): A {
  const own = adapter as unknown as {
    client: { query(sql: string): Promise<unknown> };
    onError(e: unknown): never;
    executeScript(script: string): Promise<void>;
  };
  own.executeScript = async (script) => {
    try {
      await own.client.query(script);
    } catch (e) {
      own.onError(e);
    }
  };
  return adapter;
}

/**
 * The adapter factory for PostgreSQL, and a way to close every connection it opened (or the process lingers on idle
 * pools).
 */
function postgresFactory(url: string): { factory: SqlMigrationAwareDriverAdapterFactory; dispose(): Promise<void> } {
  patchCharOid();
  // Discrete fields: a connectionString would override the shadow database's name.
  const c = parse(url);
  const cfg = {
    host: c.host ?? "127.0.0.1",
    port: Number(c.port ?? 5432),
    user: c.user,
    password: c.password,
    database: c.database ?? undefined,
  };
  const admin = async (sql: string) => {
    const client = new pg.Client(cfg);
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const base = new PrismaPg(cfg);
  const opened: Array<{ dispose(): Promise<void> }> = [];
  const factory = {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect() {
      const adapter = wholeScripts(await base.connect());
      opened.push(adapter);
      return adapter;
    },
    // adapter-pg's own shadow database is dropped before its pool closes; make and drop our own.
    async connectToShadowDb() {
      const name = `prisma_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      await admin(`CREATE DATABASE "${name}"`);
      const shadow = wholeScripts(await new PrismaPg({ ...cfg, database: name }).connect());
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return shadow;
    },
  } as SqlMigrationAwareDriverAdapterFactory;
  return {
    factory,
    dispose: async () => {
      await Promise.all(opened.splice(0).map((a) => a.dispose()));
    },
  };
}

function migrationsList() {
  fs.mkdirSync(MIGRATIONS_DIR, { recursive: true });
  const lock = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    shadowDbInitScript: "",
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lock) ? fs.readFileSync(lock, "utf8") : null },
    migrationDirectories: fs
      .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
      .map((m) => ({
        path: m,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok", value: fs.readFileSync(path.join(MIGRATIONS_DIR, m, "migration.sql"), "utf8") },
        },
      })),
  };
}

async function withEngine<T>(
  target: DbTarget,
  pglite: PGlite | undefined,
  fn: (engine: Engine) => Promise<T>,
): Promise<T> {
  const bg = await loadWasm();
  const ownPglite = target.kind === "pglite" && !pglite ? openPGlite(target.dir) : undefined;
  const pgFactory = target.kind === "postgres" ? postgresFactory(target.url) : null;
  const factory = pgFactory?.factory ?? new PrismaPGlite((pglite ?? ownPglite)!);
  const schema = fs.readFileSync(SCHEMA_PATH, "utf8");
  const engine = (await (
    bg as unknown as { SchemaEngine: { new: (...a: unknown[]) => Promise<Engine> } }
  ).SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  )) as Engine;
  try {
    return await fn(engine);
  } finally {
    (engine as unknown as { free?: () => void }).free?.();
    await pgFactory?.dispose();
    if (ownPglite) await ownPglite.close();
  }
}

/** Applies every pending migration, then the database's code (prisma/sql/); returns the migrations applied now. */
export async function applyMigrations(target: DbTarget, pglite?: PGlite): Promise<string[]> {
  const applied = await withEngine(
    target,
    pglite,
    async (engine) =>
      (await engine.applyMigrations({ migrationsList: migrationsList(), filters: FILTERS })).appliedMigrationNames,
  );
  await applyDatabaseCode(target, pglite);
  return applied;
}

/** The files of prisma/sql/: functions first (triggers name them), each folder in name order. */
export function databaseCodeFiles(): Array<{ path: string; text: string }> {
  return ["functions", "triggers"].flatMap((dir) =>
    fs
      .readdirSync(path.join(SQL_DIR, dir))
      .filter((f) => f.endsWith(".sql"))
      .sort()
      .map((f) => ({ path: `${dir}/${f}`, text: fs.readFileSync(path.join(SQL_DIR, dir, f), "utf8") })),
  );
}

/**
 * Every function and trigger as its file says, in one transaction (decision 51). On PostgreSQL under
 * an advisory lock: processes starting together replace them one after another.
 */
async function applyDatabaseCode(target: DbTarget, pglite?: PGlite): Promise<void> {
  const text = ["SELECT pg_advisory_xact_lock(7413);", ...databaseCodeFiles().map((f) => f.text)].join("\n");
  if (target.kind === "postgres") {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`BEGIN;\n${text}\nCOMMIT;`);
    } finally {
      await client.end();
    }
    return;
  }
  const own = pglite ? undefined : openPGlite(target.dir);
  try {
    await (pglite ?? own)!.exec(`BEGIN;\n${text}\nCOMMIT;`);
  } finally {
    await own?.close();
  }
}

/** Writes a new migration from the schema's difference to the migrations so far (development). */
export function createMigration(target: DbTarget, name: string): Promise<string | null> {
  return withEngine(target, undefined, async (engine) => {
    // devDiagnostic also fills the shadow-schema cache that createMigration needs.
    const diag = await engine.devDiagnostic({ migrationsList: migrationsList(), filters: FILTERS });
    if (diag.action.tag === "reset")
      throw new Error(`The database has drifted from the migrations; reset it first: ${diag.action.reason}`);
    const schema = fs.readFileSync(SCHEMA_PATH, "utf8");
    const out = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: migrationsList(),
      schema: { files: [{ path: SCHEMA_PATH, content: schema }] },
      filters: FILTERS,
    });
    if (out.migrationScript == null) return null;
    const dir = path.join(MIGRATIONS_DIR, out.generatedMigrationName);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `migration.${out.extension}`), out.migrationScript);
    const lock = path.join(MIGRATIONS_DIR, "migration_lock.toml");
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, `provider = "${out.connectorType}"\n`);
    return out.generatedMigrationName;
  });
}
