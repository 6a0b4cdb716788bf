// npm run bench:results -- [--trajectories N] [--repeat N] [--uniform]
// Fills a fresh database with N trajectories (20 steps each, one of 5,000) and 3 votes each, in SQL, then times the
// result-table aggregation (getResults: three GROUP BY queries and the figures) beside the bare SQL
// aggregate (one GROUP BY count over the same rows), the agreement table (two annotators on one
// trajectory in ten) beside its bare GROUP BY, the trajectory list (filtered and text-searched),
// the rules' first scan of the study (lib/data/rule-matches.ts) and the figures read from their kept
// hits, the pages of the 5,000-step trajectory, and a fourth judge's panel compared with the panel in
// force and the result table under it (--panel).
// Prints a table and the figures as one JSON line. PostgreSQL with DATABASE_URL, else PGlite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readAgreement } from "@/lib/data/agreement";
import { getMonitors, monitorInput } from "@/lib/data/monitors";
import { getPairedChanges } from "@/lib/data/paired";
import { comparePanelsNamed } from "@/lib/data/panel-compare";
import { savePanel, underPanel } from "@/lib/data/panel-set";
import { getResults } from "@/lib/data/results";
import { getRuleHits } from "@/lib/data/rule-hits";
import { scanStep } from "@/lib/data/rule-scan-step";
import { rebuildSearchDocuments } from "@/lib/data/search-documents";
import { compactTallies } from "@/lib/data/tallies";
import { listTrajectories } from "@/lib/data/trajectories";
import { getSteps, getSuspectSteps } from "@/lib/data/trajectory";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { monitorReport } from "@/lib/domain/monitor-report";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { ruleFigures } from "@/lib/work/rule-figures";
import { applyMigrations } from "@/prisma/migrate-engine";
import { dropBenchDatabase, freshTarget } from "./bench-corpus";

const { values } = parseArgs({
  options: {
    trajectories: { type: "string", default: "15000" },
    repeat: { type: "string", default: "5" },
    uniform: { type: "boolean", default: false },
  },
});
const N = Number(values.trajectories),
  REPEAT = Number(values.repeat);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-results-"));

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm: each pooled connection plans its statements once
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

const target = await freshTarget(dir, "results");
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
const sql = (q: string) => handle.prisma.$executeRawUnsafe(q);
// The paper's design: 3 models × 2 benchmarks × 2 networks × 2 prompts × 3 runs over N/72 tasks a benchmark.
await sql(`INSERT INTO benchmark (name) VALUES ('bench-a'), ('bench-b')`);
await sql(`INSERT INTO agent_model (name) VALUES ('model-1'), ('model-2'), ('model-3')`);
await sql(`INSERT INTO judge (name) VALUES ('judge-1'), ('judge-2'), ('judge-3')`);
await sql(
  `INSERT INTO task ("benchmarkId", key) SELECT b, 'task-' || g FROM generate_series(1, 2) b, generate_series(1,
    ${Math.ceil(N / 72)}) g`,
);
await sql(`INSERT INTO trajectory ("benchmarkId", "modelId", "taskId", network, prompt, run, resolved, "updatedAt")
  SELECT t."benchmarkId", m, t.id, net, p::"Prompt", r, CASE WHEN random() < 0.05 THEN NULL ELSE random() < 0.4
    END, now()
  FROM task t, generate_series(1, 3) m, (VALUES (true), (false)) n(net), (VALUES ('vanilla'), ('principled'))
    pr(p), generate_series(1, 3) r
  LIMIT ${N}`);
// --uniform: each verdict a third of the time (the monitors' worst case); by default as the paper's rates
// run, mostly not attempted (85%, attempted 10%, successful 5%).
const verdict = values.uniform
  ? `(ARRAY['NOT_ATTEMPTED','ATTEMPTED','SUCCESSFUL'])[1 + floor(random() * 3)::int]::"Verdict"`
  : `(CASE WHEN random() < 0.85 THEN 'NOT_ATTEMPTED' WHEN random() < 0.67 THEN 'ATTEMPTED' ELSE 'SUCCESSFUL'
      END)::"Verdict"`;
// A random verdict in each of the four built-in categories.
const verdicts = `jsonb_build_object('UPSTREAM', ${verdict}, 'LOCAL_GIT', ${verdict}, 'MEMORY', ${verdict},
  'OTHER', ${verdict})`;
await sql(`INSERT INTO judge_vote ("trajectoryId", "judgeId", verdicts, overall, "parseStatus", "updatedAt", counted)
  SELECT t.id, j, ${verdicts}, ${verdict}, 'GIVEN', now(), true FROM trajectory t, generate_series(1, 3) j`);
// Stored panel columns as the import would leave them (values need not follow the votes for timing).
await sql(`UPDATE trajectory SET "panelVerdict" = ${verdict}, "panelCategories" = ${verdicts},
  "panelSplit" = 'MAJORITY', "voteCount" = 3`);
// Two annotators label one trajectory in ten, drawn by a hash of its id so every condition has some: the
// agreement table's rows.
await sql(`INSERT INTO "user" (id, handle, name, role, "updatedAt") VALUES
  ('bench-ann-1', 'bench-ann-1', 'Annotator 1', 'ANNOTATOR', now()),
  ('bench-ann-2', 'bench-ann-2', 'Annotator 2', 'ANNOTATOR', now())`);
await sql(`INSERT INTO label ("trajectoryId", "annotatorId", verdicts, overall, "updatedAt")
  SELECT t.id, a, ${verdicts}, ${verdict}, now()
    FROM trajectory t, (VALUES ('bench-ann-1'), ('bench-ann-2')) x(a) WHERE hashint4(t.id) % 10 = 0`);
await sql(`UPDATE trajectory SET "labelCount" = 2 WHERE hashint4(id) % 10 = 0`);
// 20 steps a trajectory: a command and its output (whose start is searchable), for text search.
await sql(`INSERT INTO message ("trajectoryId", seq, step, role, content)
  SELECT t.id, s * 2, s, 'assistant', '' FROM trajectory t, generate_series(1, 20) s`);
await sql(`INSERT INTO message ("trajectoryId", seq, step, role, content)
  SELECT t.id, s * 2 + 1, s, 'tool', repeat(md5(t.id::text || ':' || s) || ' ', 12) FROM trajectory t,
    generate_series(1, 20) s`);
await sql(`INSERT INTO tool_call ("trajectoryId", "messageSeq", step, seq, name, input)
  SELECT t.id, s * 2, s, 0, 'bash', CASE WHEN (t.id + s) % 97 = 0 THEN 'git log --all --oneline | head' ELSE
    'sed -n ' || s || ',40p src/mod_' || (t.id % 50) || '.py' END
  FROM trajectory t, generate_series(1, 20) s`);
// One trajectory of 5,000 steps, for the timeline.
const [long] = await handle.prisma.$queryRawUnsafe<Array<{ id: number }>>(`SELECT min(id) AS id FROM trajectory`);
const longId = long!.id;
await sql(`DELETE FROM message WHERE "trajectoryId" = ${longId}`);
await sql(
  `INSERT INTO message ("trajectoryId", seq, step, role, content) SELECT ${longId}, s * 2 - 1, s, 'assistant',
    'step ' || s FROM generate_series(1, 5000) s`,
);
await sql(
  `INSERT INTO message ("trajectoryId", seq, step, role, content) SELECT ${longId}, s * 2, s, 'tool',
    repeat('out ', 200) FROM generate_series(1, 5000) s`,
);
await sql(
  `INSERT INTO tool_call ("trajectoryId", "messageSeq", step, seq, name, input) SELECT ${longId}, s * 2 - 1, s, 0,
    'bash', CASE WHEN s % 500 = 0 THEN 'git reflog' ELSE 'ls -la' END FROM generate_series(1, 5000) s`,
);
await sql(`UPDATE trajectory SET "stepCount" = 5000, "messageCount" = 10000 WHERE id = ${longId}`);
// Search documents as the importer builds them: the commands, and the start of each output.
await rebuildSearchDocuments();
// The rules' hits kept (lib/data/rule-matches.ts): every rule's first scan of the study, step by step,
// as a server runs it in the background after a start or an import (readers meanwhile are told how
// many trajectories it has not read).
const ruleRows = await handle.prisma.rule.count();
const scanStarted = performance.now();
let scanSteps = 0,
  longestStep = 0;
for (;;) {
  const t0 = performance.now();
  const step = await scanStep();
  if (step === "done") break;
  if (step === "busy") throw new Error("the rules' scan is held by another process");
  scanSteps += 1;
  longestStep = Math.max(longestStep, performance.now() - t0);
}
const ruleScan = performance.now() - scanStarted;
// The tallies' deltas folded, as the first reader of a study at rest leaves them.
await compactTallies("results");
await compactTallies("agreement");
await sql(`VACUUM ANALYZE`);

const rows = await handle.prisma.trajectory.count();
const votes = await handle.prisma.judgeVote.count();
const results = await time(() => getResults());
const bare = await time(() =>
  handle.prisma.$queryRawUnsafe(
    `SELECT "benchmarkId", "modelId", network, prompt, count(*) FROM trajectory GROUP BY 1, 2, 3, 4`,
  ),
);
const paired = await time(() => getPairedChanges());
const agreement = await time(() => readAgreement({}, { monitors: false }));
const agreementBare = await time(() =>
  handle.prisma.$queryRawUnsafe(
    `SELECT t.network, t.prompt, l.overall, t."panelVerdict", count(*) FROM label l JOIN trajectory t ON t.id =
      l."trajectoryId" GROUP BY 1, 2, 3, 4`,
  ),
);
const list = await time(() => listTrajectories({}));
const filtered = await time(() => listTrajectories({ panel: "SUCCESSFUL", network: "on", split: "MAJORITY" }));
const searchCommand = await time(() => listTrajectories({ q: "git log --all" }));
const [probe] = await handle.prisma.$queryRawUnsafe<Array<{ text: string }>>(
  `SELECT left(content, 32) AS text FROM message WHERE role = 'tool' OFFSET 1234 LIMIT 1`,
);
const searchOutput = await time(() => listTrajectories({ q: probe!.text }));
// Every filter of the list, its first page: those answered by an id list (search, pairs, rules, gold)
// pass 65,535 ids past about 130,000 trajectories and go through an id set there.
await sql(`INSERT INTO gold_label ("trajectoryId", "adjudicatorId", verdicts, overall)
  SELECT id, 'bench-ann-1', ${verdicts}, ${verdict} FROM trajectory
  WHERE hashint4(id) % 20 = 0`);
await sql(`UPDATE trajectory t SET "goldOverall" = g.overall FROM gold_label g WHERE g."trajectoryId" = t.id`);
// The monitors against those gold labels beside the agreement table read with them (one judge gives confidence).
await sql(`UPDATE judge_vote SET confidence = jsonb_build_object('UPSTREAM', random(), 'LOCAL_GIT', random(),
  'MEMORY', random(), 'OTHER', random()) WHERE "judgeId" = (SELECT min(id) FROM judge)`);
const agreementWithGold = await time(() => readAgreement({}, { monitors: false }));
const monitors = await time(() => getMonitors());
// Its two parts: the reads, and the figures computed in this thread (getMonitors computes them off it).
const monitorsRead = await time(() => monitorInput());
const monitorsInput = await monitorInput();
const monitorsCompute = await time(async () => monitorReport(monitorsInput));
const gold = await handle.prisma.goldLabel.count();
const FILTERS: Record<string, TrajectoryFilter> = {
  "network, prompt, panel": { network: "on", prompt: "vanilla", panel: "SUCCESSFUL" },
  "split, judge verdict": { split: "MAJORITY", judge: "judge-1", judgeVerdict: "attempt" },
  "category, labelled": { category: "MEMORY", categoryVerdict: "attempt", labelled: "yes" },
  "text in commands (most)": { q: "sed -n" },
  "text in commands (rare)": { q: "git log --all" },
  "pair: task": { pair: "task" },
  "pair: run": { pair: "run" },
  "pair: attempt differs": { pair: "attempt" },
  "a suspect rule fires": { suspect: "any" },
  "a rule tried fires": { tryOn: "command", tryPattern: "sed -n 1[0-9]," },
  "a rule tried does not fire": { tryOn: "command", tryPattern: "sed -n 1[0-9],", ruleFires: "no" },
  "gold verdict": { category: "UPSTREAM", goldVerdict: "attempt" },
  "sorted by steps, page 3": { sort: "steps", dir: "desc", page: 3 },
};
// A filter that does not answer (a rule scan past its bound) is a figure too: the others still run.
const filterTimes: Record<string, { ms: number; total: number } | { failed: string }> = {};
for (const [name, f] of Object.entries(FILTERS)) {
  let total = 0;
  try {
    const ms = await time(async () => {
      total = (await listTrajectories(f)).total;
    });
    filterTimes[name] = { ms: +ms.toFixed(1), total };
  } catch (e) {
    filterTimes[name] = { failed: e instanceof Error ? e.message : String(e) };
  }
}
const ruleHitsTable = await time(() => getRuleHits());
const rulesPage = await time(() => ruleFigures());
const timelineFirst = await time(() => getSteps(longId, 0, 50));
const timelineLast = await time(() => getSteps(longId, 4951, 5000));
const suspectIndex = await time(() => getSuspectSteps(longId));

// A fourth judge's answers under prompt v1, and a candidate panel with it in judge-3's place.
await sql(`INSERT INTO judge (name) VALUES ('judge-4')`);
await sql(`INSERT INTO judge_vote ("trajectoryId", "judgeId", verdicts, overall, "parseStatus", "updatedAt",
  "promptVersion")
  SELECT t.id, (SELECT id FROM judge WHERE name = 'judge-4'), ${verdicts}, ${verdict}, 'GIVEN', now(), 1
    FROM trajectory t`);
await sql(`INSERT INTO panel_member ("panelId", "judgeId", "promptVersion")
  SELECT p.id, j.id, 0 FROM panel p, judge j WHERE p.name = 'initial' AND j.name <> 'judge-4' ON CONFLICT DO NOTHING`);
const judge = (name: string, promptVersion: number | null = null) => ({ judge: name, promptVersion });
await savePanel(null, [judge("judge-1"), judge("judge-2"), judge("judge-4", 1)], { adopt: false, name: "candidate" });
const compare = await time(() => comparePanelsNamed("candidate"));
const underCandidate = await time(() => underPanel("candidate", () => getResults()));

const figures = {
  database: target.kind,
  trajectories: rows,
  votes,
  results_ms: +results.toFixed(1),
  bare_group_by_ms: +bare.toFixed(1),
  ratio_to_bare: +(results / bare).toFixed(2),
  paired_changes_ms: +paired.toFixed(1),
  agreement_ms: +agreement.toFixed(1),
  agreement_bare_ms: +agreementBare.toFixed(1),
  agreement_ratio_to_bare: +(agreement / agreementBare).toFixed(2),
  gold_labels: gold,
  agreement_with_gold_ms: +agreementWithGold.toFixed(1),
  monitors_ms: +monitors.toFixed(1),
  monitors_ratio_to_agreement: +(monitors / agreementWithGold).toFixed(2),
  monitors_read_ms: +monitorsRead.toFixed(1),
  monitors_compute_ms: +monitorsCompute.toFixed(1),
  list_page_ms: +list.toFixed(1),
  filtered_list_page_ms: +filtered.toFixed(1),
  search_command_ms: +searchCommand.toFixed(1),
  search_output_ms: +searchOutput.toFixed(1),
  timeline_5000_first_page_ms: +timelineFirst.toFixed(1),
  timeline_5000_last_page_ms: +timelineLast.toFixed(1),
  timeline_5000_suspect_index_ms: +suspectIndex.toFixed(1),
  list_filters: filterTimes,
  rules: ruleRows,
  rule_scan_s: +(ruleScan / 1000).toFixed(1),
  rule_scan_steps: scanSteps,
  rule_scan_longest_step_ms: +longestStep.toFixed(1),
  rule_hits_table_ms: +ruleHitsTable.toFixed(1),
  rules_page_figures_ms: +rulesPage.toFixed(1),
  panel_compare_ms: +compare.toFixed(1),
  results_under_panel_ms: +underCandidate.toFixed(1),
};
console.error(`${describeTarget(target)}: ${rows} trajectories, ${votes} votes; median of ${REPEAT}`);
console.log(
  `result table    ${figures.results_ms.toFixed(1).padStart(8)} ms   bare GROUP BY ` +
    `${figures.bare_group_by_ms.toFixed(1)} ms   ratio ${figures.ratio_to_bare}`,
);
console.log(`paired changes  ${figures.paired_changes_ms.toFixed(1).padStart(8)} ms   (McNemar and the bootstrap)`);
console.log(
  `agreement table ${figures.agreement_ms.toFixed(1).padStart(8)} ms   bare GROUP BY ` +
    `${figures.agreement_bare_ms.toFixed(1)} ms   ratio ${figures.agreement_ratio_to_bare}`,
);
console.log(
  `monitors        ${figures.monitors_ms.toFixed(1).padStart(8)} ms   agreement table with the same ` +
    `${figures.gold_labels} gold labels ${figures.agreement_with_gold_ms.toFixed(1)} ms   ratio ` +
    `${figures.monitors_ratio_to_agreement} (reads ${figures.monitors_read_ms} ms, ` +
    `figures ${figures.monitors_compute_ms} ms)`,
);
console.log(
  `list, page 1    ${figures.list_page_ms.toFixed(1).padStart(8)} ms   filtered ` +
    `${figures.filtered_list_page_ms.toFixed(1)} ms`,
);
console.log(
  `text search     ${figures.search_command_ms.toFixed(1).padStart(8)} ms in commands   ` +
    `${figures.search_output_ms.toFixed(1)} ms in outputs`,
);
for (const [name, t] of Object.entries(filterTimes)) {
  const shown = "failed" in t ? `failed: ${t.failed}` : `${t.ms.toFixed(1).padStart(8)} ms   ${t.total} trajectories`;
  console.log(`  ${name.padEnd(26)} ${shown}`);
}
console.log(
  `rules' scan     ${figures.rule_scan_s.toFixed(1).padStart(8)} s    ${ruleRows} rules over every trajectory, ` +
    `${scanSteps} steps, the longest ${figures.rule_scan_longest_step_ms.toFixed(0)} ms (in the background)`,
);
console.log(
  `rule hits       ${figures.rule_hits_table_ms.toFixed(1).padStart(8)} ms by condition   ` +
    `${figures.rules_page_figures_ms.toFixed(1)} ms every rule's figures (the Rules page)`,
);
console.log(
  `5,000 steps     ${figures.timeline_5000_first_page_ms.toFixed(1).padStart(8)} ms first page   ` +
    `${figures.timeline_5000_last_page_ms.toFixed(1)} ms last page   ` +
    `${figures.timeline_5000_suspect_index_ms.toFixed(1)} ms suspect index`,
);
console.log(
  `panels          ${figures.panel_compare_ms.toFixed(1).padStart(8)} ms compared   ` +
    `${figures.results_under_panel_ms.toFixed(1)} ms result table under the candidate (--panel)`,
);
console.log(JSON.stringify(figures));
await closeCurrentDb();
fs.rmSync(dir, { recursive: true, force: true });
if (!process.env.BENCH_KEEP) await dropBenchDatabase("results");
process.exit(0);
