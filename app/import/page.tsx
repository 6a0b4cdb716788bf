import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";
import { ImportHistory } from "@/components/import/import-history";
import { requirePage } from "@/lib/auth/session";
import { listImports } from "@/lib/data/import/history";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage() {
  await requirePage("imports:write", "/import");
  const imports = await listImports();
  return (
    <>
      <h1>Import</h1>
      <p className="lede">
        Trajectories, judge votes, labels and task records (SWE-bench rows) in the app&apos;s own JSONL, or the files
        agent harnesses write. Each file lands whole or not at all; importing it again replaces what it brought. Large
        collections go faster from the command line: <code>npm run cli -- import FILE_OR_FOLDER</code>.
      </p>
      <details className="format-help">
        <summary>What the importer reads</summary>
        <ul>
          <li>
            The app&apos;s own records (<code>.jsonl</code>, or <code>.json</code> holding one or a list), gzipped or
            not; SWE-bench task rows (a list, JSON Lines, or one <code>config.json</code>), which attach to the
            trajectories of their task and give their evidence.
          </li>
          <li>
            mini-swe-agent <code>.traj.json</code> (v1, v2 with tool calls or fenced actions such as{" "}
            <code>mswea_bash_command</code>, legacy lists); SWE-agent <code>.traj</code> (0.x, 1.x).
          </li>
          <li>
            OpenHands evaluation <code>output.jsonl</code> (v0 events, SDK v1, the 2024 resolver), event lists and
            completion logs.
          </li>
          <li>
            Inspect AI logs (<code>.eval</code> and <code>.json</code>): each sample epoch is a trajectory; the model
            comes from the log, the run from the epoch, resolved from the sample&apos;s score.
          </li>
          <li>
            Harbor ATIF <code>trajectory.json</code> (ATIF-v1.0 to v1.7) and Moatless <code>trajectory.json</code>.
          </li>
        </ul>
        <p>
          Harness files do not say the benchmark, network or prompt: give them above. The task id comes from the file or
          its name; a task id or run given here for a file of many trajectories is refused, since they would merge into
          one. Each import counts the assistant turns and tool calls it read; a turn whose text looks like an action but
          gave no tool call is a warning (Strict rejects the file).
        </p>
      </details>
      <ImportForm />
      <ImportHistory imports={imports} />
    </>
  );
}
