// npm run bench:rules (DATABASE_URL: a database holding a study, e.g. the one `npm run bench -- --keep`
// leaves): a new command rule and a new output rule tried over the whole study (lib/data/rule-test.ts:
// hits by condition, the four cells, 20 samples), each beside one bare query applying the same
// pattern to the same column in the same run; then the scan that keeps every rule in force's hits
// (lib/data/rule-matches.ts; a server runs it in the background after an import), and the Rules
// page's figures read from them. Medians of 3. `npm run bench` runs the same timings (ruleTimings)
// on its own study.

import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { testRule } from "@/lib/data/rule-test";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { ruleFigures } from "@/lib/work/rule-figures";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";

const NEW_RULE = { name: null, category: "UPSTREAM", ignoreCase: false } as const;
const COMMAND_PATTERN = String.raw`\ypip3?\s+download\y`;
const OUTPUT_PATTERN = String.raw`\yFETCH_HEAD\y`;
// Measured to the end: the scan's own limit (a minute) would stop a slow run instead of timing it.
const UNTIL_DONE = { timeoutMs: 30 * 60_000 };

async function median(fn: () => Promise<unknown>, repeat = 3): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(repeat / 2)]!;
}

/** The rules' timings on the study in the current database; `query` runs bare SQL on it. */
export async function ruleTimings(query: (sql: string) => Promise<unknown>) {
  const bare = (sql: string) => () => query(sql);
  return {
    rule_command_ms: await median(() =>
      testRule({ ...NEW_RULE, on: "command", pattern: COMMAND_PATTERN }, {}, UNTIL_DONE),
    ),
    rule_command_bare_ms: await median(
      bare(`SELECT count(DISTINCT "trajectoryId") FROM tool_call WHERE input ~ '${COMMAND_PATTERN}'`),
    ),
    rule_output_ms: await median(() =>
      testRule({ ...NEW_RULE, on: "output", pattern: OUTPUT_PATTERN }, {}, UNTIL_DONE),
    ),
    rule_output_bare_ms: await median(
      bare(`SELECT count(DISTINCT "trajectoryId") FROM message WHERE role = 'tool' AND content ~ '${OUTPUT_PATTERN}'`),
    ),
    // What is left to read of the study (all of it, the first time), to the end.
    rule_scan_ms: await median(async () => {
      if ((await ruleHitsCoverage()).unscanned) await scanRuleHits();
    }, 1),
    rules_page_figures_ms: await median(() => ruleFigures()),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("bench:rules reads a study: set DATABASE_URL to its database");
  const handle = connect({ kind: "postgres", url });
  setCurrentDb(handle);
  console.error(`[bench:rules] ${describeTarget(handle.target)}`);
  const t = await ruleTimings((sql) => handle.prisma.$queryRawUnsafe(sql));
  const r1 = (ms: number) => Math.round(ms / 100) / 10;
  console.log(`a new command rule, tried: ${r1(t.rule_command_ms)} s (bare query ${r1(t.rule_command_bare_ms)} s)`);
  console.log(`a new output rule, tried: ${r1(t.rule_output_ms)} s (bare query ${r1(t.rule_output_bare_ms)} s)`);
  console.log(
    `the rules' hits kept (a scan of what was not yet read): ${r1(t.rule_scan_ms)} s; ` +
      `every rule in force measured (the Rules page): ${r1(t.rules_page_figures_ms)} s`,
  );
  console.log(JSON.stringify(t));
  await closeCurrentDb();
}
