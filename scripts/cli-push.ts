// npm run cli -- import --server URL FILE...: sends each file through the HTTP API (POST
// /api/v1/imports) instead of writing to a database, so a cluster job needs a token, not the
// database's credentials. The token is read from SHORTCUT_AUDIT_TOKEN. Each file is streamed from
// disk with the same progress bar and the same summary as a local import.
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import type { Condition } from "@/lib/formats/condition";
import type { FileImport } from "@/lib/work/import/files";
import type { ProgressBar } from "./progress";

/** The query parameters of a file's condition and options, as the API names them. */
function pushQuery(file: string, condition: Partial<Condition>, strict: boolean): string {
  const q = new URLSearchParams({ name: path.basename(file) });
  for (const [k, v] of Object.entries(condition))
    if (v !== undefined && v !== null) q.set(k, k === "network" ? (v ? "on" : "off") : String(v));
  if (strict) q.set("strict", "1");
  return q.toString();
}

/**
 * A file that did not land for a reason outside it (the server refused it before importing, or could
 * not be reached; the database went away mid-file), as a failed import.
 */
export const failedImport = (file: string, bytes: number, message: string): FileImport => ({
  ok: false,
  importId: 0,
  errors: [{ line: 0, field: null, message }],
  errorCount: 1,
  records: 0,
  assistantTurns: 0,
  toolCalls: 0,
  warnings: [],
  warningCount: 0,
  file,
  unit: "line",
  bytes,
  seconds: 0,
});

/** Pushes one file to the server: its import's summary as the server answered it. */
export async function pushFile(
  server: string,
  token: string,
  file: string,
  condition: Partial<Condition>,
  strict: boolean,
  bar: ProgressBar,
): Promise<FileImport> {
  const bytes = fs.statSync(file).size;
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      bar.update(sent, 0);
      done(null, chunk);
    },
  });
  const body = Readable.toWeb(fs.createReadStream(file).pipe(counted)) as ReadableStream<Uint8Array>;
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`${server.replace(/\/+$/, "")}/api/v1/imports?${pushQuery(file, condition, strict)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-length": String(bytes) },
      body,
      duplex: "half",
    } as RequestInit);
  } catch (e) {
    return failedImport(file, bytes, `the server could not be reached: ${e instanceof Error ? e.message : String(e)}`);
  }
  const answer = (await response.json().catch(() => null)) as
    | (FileImport & { error?: undefined })
    | { error: { code: string; message: string } }
    | null;
  if (!answer) return failedImport(file, bytes, `the server answered ${response.status} without a summary`);
  if (answer.error)
    return failedImport(file, bytes, `${response.status} ${answer.error.code}: ${answer.error.message}`);
  return { ...(answer as FileImport), file, bytes, seconds: (performance.now() - started) / 1000 };
}
