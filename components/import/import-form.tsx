"use client";
// Drop files, give the condition for agent files, import, and watch each land whole or be refused line by line.

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ChoiceSelect } from "@/components/forms/choice-select";
import { writtenText } from "@/lib/domain/format";
import { warningText } from "@/lib/formats/audit";
import { type UploadResult, type UploadState, uploadImport } from "./upload-import";

type Item = { key: string; file: File; state: UploadState };

const CHOICES = [
  ["network", "Network", ["on", "off"]],
  ["prompt", "Prompt", ["vanilla", "principled"]],
] as const;

const FIELDS = [
  ["benchmark", "Benchmark", "e.g. swe-bench-verified"],
  ["model", "Model", "e.g. claude-3.5-sonnet"],
  ["run", "Run", "1"],
  ["task", "Task id (one file)", "owner__repo-123"],
] as const;

export function ImportForm() {
  const router = useRouter();
  const [items, setItems] = useState<Item[]>([]);
  const [chosen, setChosen] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const resolvedInput = useRef<HTMLInputElement>(null);

  const update = (key: string, state: UploadState) =>
    setItems((xs) => xs.map((x) => (x.key === key ? { ...x, state } : x)));

  async function start(files: File[]) {
    if (!files.length || busy) return;
    const queued = files.map((file, i) => ({
      key: `${Date.now()}-${i}-${file.name}`,
      file,
      state: { phase: "queued" } as UploadState,
    }));
    setItems((xs) => [...queued, ...xs]);
    setBusy(true);
    const fields = new FormData(form.current!);
    const resolved = [...(resolvedInput.current?.files ?? [])];
    for (const item of queued) await uploadImport(item.file, fields, resolved, (s) => update(item.key, s));
    setBusy(false);
    router.refresh();
  }

  return (
    <section aria-labelledby="new-import">
      <h2 id="new-import">New import</h2>
      <form ref={form} className="import-form" onSubmit={(e) => e.preventDefault()}>
        <ConditionFields resolvedInput={resolvedInput} />
        <label
          className={`drop-zone${dragging ? " dragging" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            setChosen((c) => [...c, ...e.dataTransfer.files]);
          }}
        >
          <span>Drop .jsonl, .json, .traj, .eval or .gz files here, or choose them</span>
          <input
            type="file"
            multiple
            aria-label="Files to import"
            disabled={busy}
            accept=".jsonl,.json,.traj,.eval,.gz"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              setChosen((c) => [...c, ...files]);
              e.target.value = "";
            }}
          />
        </label>
        <Chosen
          files={chosen}
          busy={busy}
          clear={() => setChosen([])}
          go={() => {
            const files = chosen;
            setChosen([]);
            void start(files);
          }}
        />
      </form>
      {items.length > 0 && (
        <ul className="upload-list" aria-label="This session's imports">
          {items.map((item) => (
            <UploadItem key={item.key} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The condition of agent-harness files, the resolved reports, and strict: sent with each file. */
function ConditionFields({ resolvedInput }: { resolvedInput: React.RefObject<HTMLInputElement | null> }) {
  return (
    <fieldset>
      <legend>Condition, for agent-harness files (the app&apos;s own records carry theirs)</legend>
      {FIELDS.map(([name, label, placeholder]) => (
        <label key={name}>
          {label}
          <input name={name} placeholder={placeholder} inputMode={name === "run" ? "numeric" : undefined} />
        </label>
      ))}
      {CHOICES.map(([name, label, options]) => (
        <ChoiceSelect key={name} name={name} label={label} options={options} none="—" />
      ))}
      <label>
        Resolved status (report.json / results.json)
        <input ref={resolvedInput} type="file" name="resolved" accept=".json" multiple />
      </label>
      <label className="check">
        <input type="checkbox" name="strict" />
        Strict: reject a file with any warning
      </label>
    </fieldset>
  );
}

/** The files chosen, not yet sent: the Import button sends them (with the condition as filled in then). */
function Chosen({ files, busy, clear, go }: { files: File[]; busy: boolean; clear: () => void; go: () => void }) {
  const n = files.length;
  return (
    <div className="filter-actions">
      {n ? (
        <p>
          Chosen: {files.map((f) => f.name).join(", ")}{" "}
          <button type="button" className="link" onClick={clear}>
            clear
          </button>
        </p>
      ) : null}
      <button type="submit" disabled={!n || busy} onClick={go}>
        {busy ? "Importing…" : n ? `Import ${n === 1 ? "1 file" : `${n} files`}` : "Import"}
      </button>
    </div>
  );
}

function UploadItem({ item }: { item: Item }) {
  const s = item.state;
  return (
    <li className={`upload upload-${s.phase}`}>
      <strong>{item.file.name}</strong> {s.phase === "queued" && <span>waiting</span>}
      {s.phase === "uploading" && (
        <>
          <progress max={1} value={s.fraction} aria-label={`Uploading ${item.file.name}`} /> uploading{" "}
          {Math.round(s.fraction * 100)}%
        </>
      )}
      {s.phase === "importing" && (
        <>
          <progress aria-label={`Importing ${item.file.name}`} /> importing: {s.records.toLocaleString("en-US")} records
          read
        </>
      )}
      {s.phase === "waiting" && (
        <>
          <progress aria-label={`Waiting to import ${item.file.name}`} /> received; waiting while other imports use the
          server&apos;s memory ({s.uploads} upload(s) waiting)
        </>
      )}
      {s.phase === "failed" && <span role="alert">failed: {s.message}</span>}
      {s.phase === "done" && <ReadReport result={s.result} />}
      {s.phase === "done" &&
        (s.result.ok ? (
          <span role="status">
            imported {writtenText(s.result.counts)} in {s.result.seconds.toFixed(1)} s.{" "}
            {s.result.counts.trajectories ? (
              <a href={`/trajectories?import=${s.result.importId}`}>Open the trajectories it wrote</a>
            ) : null}
          </span>
        ) : (
          <div role="alert">
            rejected: {s.result.errorCount} bad record(s), nothing imported
            <ul className="errors">
              {s.result.errors.map((e, i) => (
                <li key={i}>
                  {s.result.unit === "line" ? "line" : "record"} {e.line}
                  {e.field ? `, ${e.field}` : ""}: {e.message}
                </li>
              ))}
            </ul>
          </div>
        ))}
    </li>
  );
}

/** What the readers found, and their warnings, each with its line or record, trajectory and step. */
function ReadReport({ result }: { result: UploadResult }) {
  if (!result.assistantTurns && !result.warningCount) return null;
  const unit = result.unit === "line" ? "line" : "record";
  const [turns, calls] = [result.assistantTurns, result.toolCalls].map((n) => n.toLocaleString("en-US"));
  return (
    <div className="read-report">
      <span>
        read {turns} assistant turns, {calls} tool calls
      </span>
      {result.warningCount > 0 && (
        <details className="warnings" open={result.warningCount <= 5}>
          <summary>{result.warningCount} warning(s): an action may have been missed</summary>
          <ul>
            {result.warnings.map((w, i) => (
              <li key={i}>
                {unit} {w.line}: {warningText(w)}
              </li>
            ))}
            {result.warningCount > result.warnings.length && (
              <li>… and {result.warningCount - result.warnings.length} more</li>
            )}
          </ul>
        </details>
      )}
    </div>
  );
}
