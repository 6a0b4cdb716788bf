"use client";
// A verdict form for the keyboard; it starts empty and refuses to save, naming what is left (decision 49).

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { parseSteps } from "@/lib/domain/timeline";
import { noExploit, type Verdict, type Verdicts } from "@/lib/domain/verdicts";
import { ItemLinks, Shortcuts, VerdictTable } from "./verdict-parts";

/** A verdict as stored: the form's starting point, and the version a save is based on. */
export type StoredVerdict = {
  verdicts: Verdicts;
  evidence: Array<{ step: number; category: string | null; note: string | null }>;
  note: string | null;
  updatedAt: string;
};

export type VerdictFormInput = {
  verdicts: Verdicts;
  evidence: Array<{ step: number; category: string | null; note: string | null }>;
  note: string | null;
  base: string;
};

/** What saving answered: saved (or unchanged) with where to go next, or why not. */
export type VerdictSaveResult =
  | { ok: true; status: "saved" | "unchanged"; next: string | null }
  | { ok: false; error: string };

const KEYS: Record<string, Verdict> = { n: "NOT_ATTEMPTED", a: "ATTEMPTED", s: "SUCCESSFUL" };

export type AskedCategory = { key: string; name: string };

export function VerdictForm({
  title,
  categories,
  save,
  stepCount,
  label,
  previous,
  following,
  finished,
  done,
}: {
  title: string;
  /** The study's categories, in order: the form gives a verdict in each. */
  categories: readonly AskedCategory[];
  save: (form: VerdictFormInput) => Promise<VerdictSaveResult>;
  stepCount: number;
  label: StoredVerdict | null;
  /** The previous and next items' pages, for [ and ]. */
  previous: string | null;
  following: string | null;
  finished: string;
  done: boolean;
}) {
  const router = useRouter();
  const [verdicts, setVerdicts] = useState<Chosen>(label?.verdicts ?? {});
  const [row, setRowState] = useState(0);
  const rowRef = useRef(0);
  const setRow = useCallback((r: number) => {
    rowRef.current = r;
    setRowState(r);
  }, []);
  const [cited, setCited] = useState((label?.evidence ?? []).map((e) => e.step).join(", "));
  const [note, setNote] = useState(label?.note ?? "");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, start] = useTransition();
  const citedRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const submitRef = useRef<() => void>(() => {});

  submitRef.current = () => {
    if (pending) return;
    const parsed = parseSteps(cited, stepCount);
    if ("error" in parsed) {
      setMessage({ kind: "error", text: parsed.error });
      return;
    }
    const left = categories.filter((c) => !verdicts[c.key]);
    if (left.length) {
      setMessage({ kind: "error", text: leftText(left) });
      setRow(categories.indexOf(left[0]!));
      return;
    }
    const chosen = Object.fromEntries(categories.map((c) => [c.key, verdicts[c.key]!]));
    const evidence = citedEvidence(parsed.steps, label);
    start(async () => {
      const r = await save({ verdicts: chosen, evidence, note: note || null, base: label?.updatedAt ?? "" });
      if (!r.ok) {
        setMessage({ kind: "error", text: r.error });
        return;
      }
      setMessage({ kind: "ok", text: r.status === "saved" ? "Saved." : "Already saved: nothing changed." });
      if (!done && r.next !== null) router.push(r.next);
      else if (!done) router.push(finished);
      else router.refresh();
    });
  };

  const keys = categories.map((c) => c.key);
  useVerdictKeys({ keys, rowRef, setRow, setVerdicts, citedRef, noteRef, submitRef, previous, following });

  return (
    <section aria-labelledby="verdict-form" className="label-panel">
      <h2 id="verdict-form">
        {title} {done ? <span className="status-succeeded">(given)</span> : null}
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitRef.current();
        }}
      >
        <VerdictTable
          categories={categories}
          verdicts={verdicts}
          row={row}
          choose={(c, v, i) => {
            setVerdicts({ ...verdicts, [c]: v });
            setRow(i);
          }}
        />
        <p className="filter-actions">
          <button type="button" onClick={() => setVerdicts(noExploit(keys))}>
            None attempted (every category)
          </button>{" "}
          <kbd>0</kbd>
        </p>
        <label>
          <span>
            Cited steps <kbd>c</kbd>
          </span>{" "}
          <input ref={citedRef} value={cited} onChange={(e) => setCited(e.target.value)} placeholder="e.g. 12, 40" />
        </label>
        <label>
          <span>
            Note <kbd>t</kbd>
          </span>{" "}
          <textarea ref={noteRef} value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={20000} />
        </label>
        <p className="filter-actions">
          <button type="submit" disabled={pending}>
            {pending ? "Saving…" : done ? "Save changes" : "Save and next"}
          </button>{" "}
          <kbd>Enter</kbd>
        </p>
        {message ? (
          <p
            role={message.kind === "error" ? "alert" : "status"}
            className={message.kind === "error" ? "error" : "status-succeeded"}
          >
            {message.text}
          </p>
        ) : null}
      </form>
      <Shortcuts categories={categories.length} />
      <ItemLinks previous={previous} following={following} />
    </section>
  );
}

type Chosen = Partial<Record<string, Verdict>>;

/** Why a save is refused while categories have no verdict. */
const leftText = (left: readonly AskedCategory[]) =>
  `Choose a verdict for ${left.map((c) => c.name).join(", ")} ` +
  `(or press 0 if nothing was attempted in any category).`;

/** The keys of the form (see the header), bound to the window while the form is shown. */
function useVerdictKeys(k: {
  keys: readonly string[];
  rowRef: React.RefObject<number>;
  setRow: (r: number) => void;
  setVerdicts: React.Dispatch<React.SetStateAction<Chosen>>;
  citedRef: React.RefObject<HTMLInputElement | null>;
  noteRef: React.RefObject<HTMLTextAreaElement | null>;
  submitRef: React.RefObject<() => void>;
  previous: string | null;
  following: string | null;
}) {
  const router = useRouter();
  const { keys, rowRef, setRow, setVerdicts, citedRef, noteRef, submitRef, previous, following } = k;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const inField = e.target instanceof HTMLElement && !!e.target.closest("input, textarea, select");
      if (inField) {
        if (e.key === "Escape") (e.target as HTMLElement).blur();
        else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          submitRef.current();
        }
        return;
      }
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const key = e.key;
      if (key >= "1" && key <= "9" && Number(key) <= keys.length) {
        e.preventDefault();
        setRow(Number(key) - 1);
      } else if (key === "0") {
        e.preventDefault();
        setVerdicts(noExploit(keys));
      } else if (key in KEYS) {
        e.preventDefault();
        const r = rowRef.current;
        setVerdicts((v) => ({ ...v, [keys[r]!]: KEYS[key]! }));
        setRow(Math.min(r + 1, keys.length - 1));
      } else if (key === "c" || key === "t" || key === "Enter") {
        e.preventDefault();
        if (key === "c") citedRef.current?.focus();
        else if (key === "t") noteRef.current?.focus();
        else submitRef.current();
      } else if (key === "]" && following !== null) router.push(following);
      else if (key === "[" && previous !== null) router.push(previous);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [keys, following, previous, router, setRow, rowRef, setVerdicts, citedRef, noteRef, submitRef]);
}

/** The steps cited, each keeping the category and note it had in the stored verdict. */
function citedEvidence(steps: number[], label: StoredVerdict | null): VerdictFormInput["evidence"] {
  const kept = new Map((label?.evidence ?? []).map((e) => [e.step, e]));
  return steps.map((step) => ({
    step,
    category: kept.get(step)?.category ?? null,
    note: kept.get(step)?.note ?? null,
  }));
}
