import "server-only";
// The database's functions and triggers as prisma/sql/ holds them (decision 51), read from the catalog.
import type { Sql } from "./sql";

const VOLATILITY: Record<string, string> = { i: "IMMUTABLE", s: "STABLE", v: "VOLATILE" };

export type CodeFile = { path: string; text: string };

/** Every function of the app's schema (not an extension's) and every trigger, as files, in path order. */
export async function databaseCode(sql: Pick<Sql, "query">): Promise<CodeFile[]> {
  const functions = await sql.query<{
    name: string;
    args: string;
    result: string;
    lang: string;
    vol: string;
    src: string;
  }>(
    `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args,
            pg_get_function_result(p.oid) AS result, l.lanname AS lang, p.provolatile AS vol, p.prosrc AS src
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
      WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1, 2`,
  );
  const triggers = await sql.query<{ name: string; tab: string; quoted: string; def: string }>(
    `SELECT t.tgname AS name, c.relname AS tab, quote_ident(c.relname) AS quoted, pg_get_triggerdef(t.oid) AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY 2, 1`,
  );
  const files = [
    ...functions.map((f) => ({
      path: `functions/${f.name}.sql`,
      text:
        `CREATE OR REPLACE FUNCTION ${f.name}(${f.args}) RETURNS ${f.result} ` +
        `LANGUAGE ${f.lang} ${VOLATILITY[f.vol] ?? "VOLATILE"} AS $fn$${f.src}$fn$;\n`,
    })),
    ...triggers.map((t) => ({
      path: `triggers/${t.tab}.${t.name}.sql`,
      text: `DROP TRIGGER IF EXISTS ${t.name} ON ${t.quoted};\n${t.def.replace(/ ON public\./, " ON ")};\n`,
    })),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
