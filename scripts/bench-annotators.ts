// A child of bench-mixed.ts: annotators saving a label a second each, for SECONDS seconds, through the
// labelling queue's own save (submitLabel), in a process of their own as the app's would be (so the
// judge run's event loop beside them does not delay their saves), from the start signal (bench-go.ts).
// Prints one JSON line: each save's milliseconds and the saves that failed.
// node --conditions=react-server --import tsx scripts/bench-annotators.ts DATABASE_URL SECONDS PEOPLE_JSON
import type { Actor } from "@/lib/auth/permissions";
import { type LabelForm, submitLabel } from "@/lib/data/queue";
import { closeCurrentDb, connect, setCurrentDb } from "@/lib/db-connect";
import { readyThenGo } from "./bench-go";

export type Annotator = { actor: Actor; items: number[]; studyId: number };

const [url, seconds, people] = process.argv.slice(2);
setCurrentDb(connect({ kind: "postgres", url: url! }));
await readyThenGo();
const stopAt = Date.now() + Number(seconds) * 1000;
const saves: number[] = [];
let errors = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const verdicts: LabelForm["verdicts"] = {
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
};
await Promise.all(
  (JSON.parse(people!) as Annotator[]).map(async ({ actor, items, studyId }) => {
    for (const trajectoryId of items) {
      if (Date.now() >= stopAt) return;
      const next = Date.now() + 1000;
      const t0 = performance.now();
      try {
        await submitLabel(actor, { studyId, trajectoryId, verdicts, evidence: [], note: null, base: "" });
        saves.push(performance.now() - t0);
      } catch {
        errors += 1;
      }
      await sleep(Math.max(0, next - Date.now()));
    }
  }),
);
await closeCurrentDb();
console.log(JSON.stringify({ saves, errors }));
