// The command line's output is whole in a pipe: a reader that takes its time gets every byte (before,
// a report stopped at the pipe's 64 KB when the process exited), and one that leaves early ends the
// command quietly. PostgreSQL only: the command line opens the test's database from a process of its own.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { currentDb } from "@/lib/db/connect";
import { runImport } from "@/lib/work/import/records";
import { asLines, demoData } from "@/prisma/factories";

const CLI = `"${process.execPath}" --conditions=react-server --import tsx scripts/cli.ts`;

/** The command's output through `reader` (a shell pipeline's tail), with its own exit status and standard error. */
function piped(url: string, args: string, reader: string) {
  const run = spawnSync(
    "bash",
    [
      "-c",
      `${CLI} ${args} 2>cli.err.$$ | ${reader}; s=\${PIPESTATUS[0]}; cat cli.err.$$ >&2; rm -f cli.err.$$; exit $s`,
    ],
    {
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/** A reader that takes nothing for a second and a half, then everything: the writer fills the pipe and waits. */
const SLOW = "(sleep 1.5; cat)";

describe.runIf(process.env.DATABASE_URL)("the command line in a pipe", () => {
  it("writes every byte to a slow reader, in every format, and stops quietly when the reader leaves", async () => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    // The demo study: three benchmarks, three models, both networks and prompts, votes, labels, task records.
    const demo = demoData({ seed: 7, tasksPerBenchmark: 12, runs: 2, labelled: 40 });
    const records = [...demo.trajectories, ...demo.tasks, ...demo.votes, ...demo.labels, ...demo.gold];
    expect((await runImport({ fileName: "pipe.jsonl", format: "interchange" }, asLines(records))).ok).toBe(true);

    const rows = (s: string) => s.trim().split("\n");
    // The large ones past the 64 KB a pipe holds (what was lost before); the small ones checked all the same.
    const cases: Array<[string, (s: string) => unknown, number]> = [
      ["results --format json", JSON.parse, 65_536],
      ["results --format latex --table all", (s) => expect(s).toMatch(/\\end\{tabular\}\s*$/), 0],
      ["agreement --format json", JSON.parse, 0],
      ["evidence --format json", JSON.parse, 65_536],
      ["evidence --format csv", (s) => expect(rows(s)[0]).toMatch(/^id,benchmark,/), 0],
    ];
    for (const [args, parse, least] of cases) {
      const slow = piped(target.url, args, SLOW);
      expect(slow.status, `${args}: ${slow.err}`).toBe(0);
      expect(slow.out.length, args).toBeGreaterThan(least);
      // A report cut anywhere does not parse.
      expect(() => parse(slow.out), args).not.toThrow();
    }
    // A list of records cut between two lines would parse: it is counted against what the export says it wrote.
    const exported = piped(target.url, "export all", SLOW);
    expect(exported.out.length).toBeGreaterThan(65_536);
    expect(rows(exported.out).map((l) => JSON.parse(l))).toHaveLength(Number(/exported (\d+)/.exec(exported.err)![1]));

    // A reader that takes 100 bytes and leaves: the command stops at once, as a shell's writer does
    // when its reader left (141), with no stack trace; the 100 bytes are the export's first.
    const head = piped(target.url, "export all", "head -c 100");
    expect(head.out).toBe(exported.out.slice(0, 100));
    expect([0, 141]).toContain(head.status);
    expect(head.err).not.toMatch(/EPIPE|Error:|at .*\.ts:\d+/);
  }, 180_000);
});
