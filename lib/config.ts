// The environment variables, parsed once with zod (decision 18); a bad value stops the program naming it.
import { z } from "zod";

const MiB = 1024 * 1024;

/** A whole number of bytes, written plainly (1048576) or with a unit (512MB, 1GiB; 1 KB = 1024 bytes). */
const bytes = (fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?\s*([KMGT]i?B?)?$/i, "a size in bytes such as 268435456, 256MB or 1GiB")
    .transform((s) => {
      const m = /^(\d+(?:\.\d+)?)\s*([KMGT])?/i.exec(s)!;
      const unit = { K: 1, M: 2, G: 3, T: 4 }[(m[2] ?? "").toUpperCase() as "K"] ?? 0;
      return Math.floor(Number(m[1]) * 1024 ** unit);
    })
    .pipe(z.number().int().min(1, "a size of at least 1 byte"))
    .optional()
    .transform((v) => v ?? fallback);

const wholeNumber = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `a whole number from ${min} to ${max}`)
        .max(max, `a whole number from ${min} to ${max}`),
    )
    .optional()
    .transform((v) => v ?? fallback);
const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) => wholeNumber(fallback, 1, max);

/** Which proxies may give the client's address: "off", a hop count, or addresses and ranges. */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v || /^(off|false|no|0)$/i.test(v)) return { kind: "off" } as const;
    if (/^\d+$/.test(v)) return { kind: "hops", hops: Number(v) } as const;
    const list = v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const word = /^(loopback|linklocal|uniquelocal)$/i;
    const address = /^[0-9a-f:.]+(\/\d{1,3})?$/i;
    const bad = list.filter((s) => !word.test(s) && !address.test(s));
    if (bad.length) {
      ctx.addIssue({
        code: "custom",
        message:
          `"off", a hop count, or addresses and ranges such as 127.0.0.1, 10.0.0.0/8, loopback (not ` +
          `${bad.join(", ")})`,
      });
      return z.NEVER;
    }
    return { kind: "list", list } as const;
  });

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      return /^postgres(ql)?:$/.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, "a PostgreSQL address such as postgres://user@127.0.0.1:5432/shortcut_audit")
  .optional();

const appUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      return /^https?:$/.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, "an address such as https://audit.example.org")
  .optional();

const EnvSchema = z.object({
  /** PostgreSQL; unset: the embedded PGlite in PGLITE_DIR. */
  DATABASE_URL: databaseUrl,
  PGLITE_DIR: z.string().optional(),
  DATABASE_POOL_SIZE: positiveInt(10, 1000),
  /** The secret that signs session cookies; unset: one generated into .data/auth-secret. */
  BETTER_AUTH_SECRET: z.string().min(32, "at least 32 characters").optional(),
  BETTER_AUTH_URL: appUrl,
  PORT: positiveInt(3000, 65535),
  /** Memory each server process keeps rendered pages in, in MB (PostgreSQL only); 0: render every page afresh. */
  PAGE_CACHE_MB: wholeNumber(128, 0, 65536),
  /** Server processes `npm start` runs on one port (PostgreSQL only: the embedded database admits one). */
  WEB_CONCURRENCY: positiveInt(1, 64),
  /** `user add` / `user password` read the password from here, else from standard input. */
  SHORTCUT_AUDIT_PASSWORD: z.string().optional(),
  /** Off: no demo study. On: load it into an empty database. Unset: on for the embedded database only. */
  DEMO_DATA: z.enum(["on", "off"], { message: "on or off" }).optional(),
  TRUST_PROXY: trustProxy,
  /** The V8 heap of the server and the command line, in MB: an import's memory stays bounded by it. */
  HEAP_LIMIT_MB: positiveInt(512, 1 << 20),
  IMPORT_MAX_UPLOAD_BYTES: bytes(1024 * MiB),
  /** The longest JSON Lines line, or JSON record, an import reads; unset: the most the heap admits. */
  IMPORT_MAX_RECORD_BYTES: bytes(0),
  /** The most text a compressed file may expand to. */
  IMPORT_MAX_DECOMPRESSED_BYTES: bytes(64 * 1024 * MiB),
  /** A compressed file that expands more than this many times its size is refused as a decompression bomb. */
  IMPORT_MAX_GZIP_RATIO: positiveInt(100),
  /** The variables a judge's key may be read from (`*_API_KEY` matches a suffix), so no other setting leaks. */
  JUDGE_KEY_VARIABLES: z
    .string()
    .trim()
    .regex(
      /^(\*?[A-Za-z_][A-Za-z0-9_]*\*?)(\s*,\s*\*?[A-Za-z_][A-Za-z0-9_]*\*?)*$/,
      "variable names, each maybe starting or ending in * (OPENAI_API_KEY, *_API_KEY, LAB_*)",
    )
    .optional()
    .transform((v) => (v ?? "*_API_KEY").split(",").map((s) => s.trim())),
});

type ParsedEnv = z.output<typeof EnvSchema>;
export type Config = ParsedEnv;

/** A record takes up to this times its size while imported; the longest is an eighth of the heap (decision 32). */
export const RECORD_MEMORY_FACTOR = 4;
export const WORK_SHARE_OF_HEAP = 0.5;
export const PAGE_CACHE_SHARE_OF_HEAP = 0.25;

/** The bytes imports and judge reads of one process may hold at once. */
export function workBudgetBytes(c: Pick<Config, "HEAP_LIMIT_MB">): number {
  return Math.floor(c.HEAP_LIMIT_MB * MiB * WORK_SHARE_OF_HEAP);
}

/** The longest record the heap admits: one record's import fits the work budget alone. */
export function maxRecordForHeap(c: Pick<Config, "HEAP_LIMIT_MB">): number {
  return Math.floor(workBudgetBytes(c) / RECORD_MEMORY_FACTOR);
}

/** Settings that are each valid but do not fit together: each named, with what would fit. */
function checkTogether(c: ParsedEnv, env: Record<string, string | undefined>): string[] {
  const bad: string[] = [];
  const maxRecord = maxRecordForHeap(c);
  if (c.IMPORT_MAX_RECORD_BYTES > maxRecord) {
    const heapNeeded = Math.ceil((c.IMPORT_MAX_RECORD_BYTES / (MiB * WORK_SHARE_OF_HEAP)) * RECORD_MEMORY_FACTOR);
    bad.push(
      `IMPORT_MAX_RECORD_BYTES=${JSON.stringify(env.IMPORT_MAX_RECORD_BYTES ?? "")}: ` +
        `a record takes up to ${RECORD_MEMORY_FACTOR} times its size while it is imported, within half the heap ` +
        `(HEAP_LIMIT_MB=${c.HEAP_LIMIT_MB}), so at most ${Math.floor(maxRecord / MiB)} MB; lower it, or raise ` +
        `HEAP_LIMIT_MB to ${heapNeeded} or more`,
    );
  }
  if (c.PAGE_CACHE_MB > c.HEAP_LIMIT_MB * PAGE_CACHE_SHARE_OF_HEAP) {
    bad.push(
      `PAGE_CACHE_MB=${c.PAGE_CACHE_MB}: kept pages may take at most a quarter of the heap ` +
        `(HEAP_LIMIT_MB=${c.HEAP_LIMIT_MB}), so at most ${Math.floor(c.HEAP_LIMIT_MB * PAGE_CACHE_SHARE_OF_HEAP)}; ` +
        `lower it, or raise HEAP_LIMIT_MB to ${c.PAGE_CACHE_MB / PAGE_CACHE_SHARE_OF_HEAP} or more`,
    );
  }
  return bad;
}

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (parsed.success) {
    const c = parsed.data;
    if (!c.IMPORT_MAX_RECORD_BYTES) c.IMPORT_MAX_RECORD_BYTES = maxRecordForHeap(c);
    const bad = checkTogether(c, env);
    if (bad.length) throw new ConfigError(`settings that do not fit the memory:\n  ${bad.join("\n  ")}`);
    return c;
  }
  const lines = parsed.error.issues.map(
    (i) => `${String(i.path[0])}=${JSON.stringify(env[String(i.path[0])] ?? "")}: expected ${i.message}`,
  );
  throw new ConfigError(`bad configuration:\n  ${lines.join("\n  ")}`);
}

/** The app's own settings and their families: never a judge's key, whatever JUDGE_KEY_VARIABLES says. */
const OWN_PREFIXES = ["BETTER_AUTH_", "DATABASE_", "PG", "NODE_", "NEXT_", "npm_", "IMPORT_", "JUDGE_KEY_"];

/** Whether a judge's key may come from `name`: allowed by JUDGE_KEY_VARIABLES, and none of the app's settings. */
export function keyVariableAllowed(name: string, allowed: readonly string[]): boolean {
  if (name in EnvSchema.shape || OWN_PREFIXES.some((p) => name.startsWith(p))) return false;
  return allowed.some((a) =>
    a.startsWith("*") ? name.endsWith(a.slice(1)) : a.endsWith("*") ? name.startsWith(a.slice(0, -1)) : name === a,
  );
}

/** Why a judge's key may not be read from `name` under this process's settings, or null when it may. */
export function keyVariableRefusal(name: string): string | null {
  const allowed = config().JUDGE_KEY_VARIABLES;
  return keyVariableAllowed(name, allowed)
    ? null
    : `the key cannot be read from ${name}: the server allows ${allowed.join(", ")} (JUDGE_KEY_VARIABLES), ` +
        "never its own settings";
}

/** Whether `npm start` loads the demo into an empty database: as DEMO_DATA says, else only on the embedded one. */
export function demoWanted(c: Pick<Config, "DEMO_DATA">, database: "postgres" | "pglite"): boolean {
  return c.DEMO_DATA ? c.DEMO_DATA === "on" : database === "pglite";
}

let cached: Config | null = null;

export function config(): Config {
  return (cached ??= parseConfig(process.env));
}
