import "server-only";
// What a rule reads and how it matches, as SQL; which versions are in force is rules_in_force() (prisma/sql/).
import { type RuleOn, SCAN_TIMEOUT_MS } from "@/lib/domain/rules";
import type { Sql } from "./sql";

/** Whether rule `r` (an alias of a rule row) matches the SQL text `text`: its pattern, its case. */
export const ruleMatches = (r: string, text: string) =>
  `(CASE WHEN ${r}."ignoreCase" THEN ${text} ~* ${r}.pattern ELSE ${text} ~ ${r}.pattern END)`;

/** The texts a rule reads, by `on`: a tool call's input, a tool message's content, an assistant's words. */
export const RULE_TEXT = {
  command: (c: string) => `${c}.input`,
  output: (m: string) => `${m}.content`,
  reasoning: (m: string) => `(coalesce(${m}.reasoning, '') || E'\\n' || ${m}.content)`,
} as const;

/** Where each kind of text is, as a table `x`: its rows and the rest of each row's key (`a`, `b`). */
export const TEXT_SOURCE: Record<RuleOn, { table: string; where: string; a: string; b: string }> = {
  command: { table: "tool_call x", where: "true", a: `x."messageSeq"`, b: "x.seq" },
  output: { table: "message x", where: "x.role = 'tool'", a: "x.seq", b: "0::int" },
  reasoning: { table: "message x", where: "x.role = 'assistant'", a: "x.seq", b: "0::int" },
};

export { SCAN_TIMEOUT_MS };

/** Bounds the rest of the transaction's statements: a pattern that runs away never holds a connection. */
export async function boundScan(sql: Sql, ms = SCAN_TIMEOUT_MS): Promise<void> {
  await sql.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(ms))}`);
}

/** Whether a statement failed because its time limit (boundScan's) cancelled it. */
export const ranPastLimit = (e: unknown) => (e as { code?: string }).code === "57014";
