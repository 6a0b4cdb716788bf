import "server-only";
// The database's own code as it stands after every migration: each function of the app (the
// tallies' triggers and folds, the agreement's, the judge requests' claim), written from the
// catalog in one form whatever the PostgreSQL version. prisma/functions.sql holds it, written by
// `npm run db:functions`; a test checks it against a migrated database, so it is always the live one.
// A migration still defines them (prisma/migrations); this is where they are read.
import type { Sql } from "./sql";

const VOLATILITY: Record<string, string> = { i: "IMMUTABLE", s: "STABLE", v: "VOLATILE" };

/** Every function of the app's schema, but those an extension (pg_trgm) brings, in name order, as SQL. */
export async function functionsSql(sql: Pick<Sql, "query">): Promise<string> {
  const rows = await sql.query<{ name: string; args: string; result: string; lang: string; vol: string; src: string }>(
    `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args,
            pg_get_function_result(p.oid) AS result, l.lanname AS lang, p.provolatile AS vol, p.prosrc AS src
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
      WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1, 2`,
  );
  const head =
    "-- The app's database functions as they stand after every migration (prisma/migrations defines them).\n" +
    "-- Written by `npm run db:functions`; lib/data/db-functions.int.test.ts checks it. Do not edit by hand.\n";
  return (
    head +
    rows
      .map(
        (f) =>
          `\n-- ${f.name}(${f.args})\nCREATE OR REPLACE FUNCTION ${f.name}(${f.args}) RETURNS ${f.result} ` +
          `LANGUAGE ${f.lang} ${VOLATILITY[f.vol] ?? "VOLATILE"} AS $fn$${f.src}$fn$;\n`,
      )
      .join("")
  );
}
