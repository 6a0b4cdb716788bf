// npm run cli -- report bundle ID --out DIR: a frozen report and its trajectories as a folder that opens anywhere.
import { parseArgs } from "node:util";
import { readFrozenReport } from "@/lib/data/frozen-reports";
import { BUNDLE_CHOICES, type BundleChoice } from "@/lib/domain/bundle";
import { IdParam } from "@/lib/domain/params";
import { AppError } from "@/lib/errors";
import { writeBundle } from "@/lib/work/bundle";

export const REPORT_HELP = `  report bundle ID --out DIR [--trajectories counted|flagged|none] [--names]
                                       write frozen report ID (its number on the Reports page) as a folder that opens
                                       from the file system or any static host: its tables, report.json, and the
                                       trajectories it counts (flagged: the panel's verdict is not NOT_ATTEMPTED);
                                       annotators appear as annotator 1, 2 … unless --names`;

type Fail = (message: string) => never;

/** Trajectories written so far, on one line of a terminal (else a line each tenth). */
function progress(done: number, total: number) {
  if (process.stderr.isTTY) process.stderr.write(`\rtrajectories ${done}/${total}${done === total ? "\n" : ""}`);
  else if (done === total || Math.floor((10 * done) / total) > Math.floor((10 * (done - 200)) / total))
    console.error(`trajectories ${done}/${total}`);
}

export async function reportCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "bundle") fail(`report: say what: bundle\n\n${REPORT_HELP}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      trajectories: { type: "string", default: "counted" },
      names: { type: "boolean" },
    },
  });
  const id = IdParam.safeParse(positionals[0]);
  if (!id.success) fail("report bundle: give the report's number (the Reports page shows it), e.g. report bundle 3");
  if (!values.out) fail("report bundle: give --out DIR, a folder that does not exist yet");
  const choice = values.trajectories as BundleChoice;
  if (!BUNDLE_CHOICES.includes(choice)) fail(`report bundle: --trajectories is one of ${BUNDLE_CHOICES.join(", ")}`);
  const report = await readFrozenReport(id.data);
  if (!report) fail(`report bundle: no report ${id.data}`);
  const started = performance.now();
  try {
    const s = await writeBundle(report, values.out, {
      trajectories: choice,
      names: values.names ?? false,
      progress,
    });
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    console.error(
      `wrote ${values.out}: ${s.trajectories} trajectories, ${s.links} figure links, ${s.files} files, ` +
        `${mb(s.bytes)} ` +
        `(largest ${s.largest.file}, ${mb(s.largest.bytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } catch (e) {
    if (e instanceof AppError) fail(`report bundle: ${e.message}`);
    throw e;
  }
}
