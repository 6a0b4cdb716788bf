// Uploads one file with XMLHttpRequest (fetch reports no upload progress), then reads the NDJSON answer.

import type { WriteCounts } from "@/lib/data/import/context";
import type { RecordWarning } from "@/lib/formats/audit";
import type { RecordError } from "@/lib/formats/interchange";

/** What the readers found in the file and warned of (see lib/formats/audit.ts). */
type Report = { assistantTurns: number; toolCalls: number; warnings: RecordWarning[]; warningCount: number };

export type UploadResult = Report &
  (
    | {
        ok: true;
        importId: number;
        unit: "line" | "record";
        seconds: number;
        counts: WriteCounts;
      }
    | { ok: false; unit: "line" | "record"; seconds: number; errors: RecordError[]; errorCount: number }
  );

export type UploadState =
  | { phase: "queued" }
  | { phase: "uploading"; fraction: number }
  | { phase: "importing"; records: number }
  /** Received whole, waiting for memory other imports hold (the server says how many uploads wait). */
  | { phase: "waiting"; uploads: number }
  | { phase: "done"; result: UploadResult }
  | { phase: "failed"; message: string };

export function uploadImport(
  file: File,
  fields: FormData,
  resolved: File[],
  onState: (s: UploadState) => void,
): Promise<void> {
  const body = new FormData();
  for (const [k, v] of fields.entries()) if (typeof v === "string") body.append(k, v);
  for (const r of resolved) body.append("resolved", r, r.name);
  body.append("file", file, file.name);

  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    let seen = 0;
    let finished = false;
    const finish = (s: UploadState) => {
      if (!finished) {
        finished = true;
        onState(s);
      }
    };
    const readLines = () => {
      const text = xhr.responseText;
      const end = text.lastIndexOf("\n");
      if (end < seen) return;
      for (const line of text.slice(seen, end).split("\n")) {
        if (!line.trim()) continue;
        const msg = JSON.parse(line) as {
          progress?: { records: number };
          waiting?: { uploads: number };
          result?: UploadResult;
          error?: string;
        };
        if (msg.waiting) onState({ phase: "waiting", uploads: msg.waiting.uploads });
        if (msg.progress) onState({ phase: "importing", records: msg.progress.records });
        if (msg.result) finish({ phase: "done", result: msg.result });
        if (msg.error) finish({ phase: "failed", message: msg.error });
      }
      seen = end + 1;
    };
    xhr.upload.onprogress = (e) =>
      onState({ phase: "uploading", fraction: e.lengthComputable ? e.loaded / e.total : 0 });
    xhr.upload.onload = () => onState({ phase: "importing", records: 0 });
    xhr.onprogress = () => {
      if (xhr.status === 200) readLines();
    };
    xhr.onload = () => {
      if (xhr.status === 200) readLines();
      else {
        let message = `the server answered ${xhr.status}`;
        try {
          message = (JSON.parse(xhr.responseText) as { error?: string }).error ?? message;
        } catch {
          /* not JSON */
        }
        finish({ phase: "failed", message });
      }
      finish({ phase: "failed", message: "the server's answer ended early" });
      resolve();
    };
    xhr.onerror = () => {
      finish({ phase: "failed", message: "the upload failed (network error)" });
      resolve();
    };
    xhr.open("POST", "/api/imports");
    xhr.send(body);
  });
}
