// POST a file to import (multipart), streamed to disk; the answer streams NDJSON progress, then the result.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { z } from "zod";
import { config } from "@/lib/config";
import { listRefusedUpload, recordFailedImport } from "@/lib/data/import/import-row";
import { formatBytes } from "@/lib/domain/format";
import { type Condition, ConditionFieldsSchema } from "@/lib/formats/condition";
import { fileWeight, importMemory, readLimits } from "@/lib/formats/limits";
import { TextWeigher } from "@/lib/formats/weight";
import { type Reservation, workBudget } from "@/lib/server/memory-budget";
import { UPLOAD_DIR_PREFIX } from "@/lib/server/recovery";
import { requireRequest } from "@/lib/web/responses";
import { importFile, loadResolved } from "@/lib/work/import/files";
import { ImportInterrupted } from "@/lib/work/import/records";

export const dynamic = "force-dynamic";

type Received = {
  dir: string;
  file: { path: string; name: string } | null;
  resolved: string[];
  fields: Record<string, string>;
  tooLarge: boolean;
  bytes: number;
  /** Each received file weighed as it arrived (lib/formats/weight.ts), by its path. */
  weighed: Map<string, TextWeigher>;
};

async function receive(request: Request, out: Received, maxBytes: number): Promise<void> {
  const parser = busboy({
    headers: Object.fromEntries(request.headers),
    limits: { fileSize: maxBytes, files: 20, fields: 20, fieldSize: 64 * 1024 },
  });
  const writes: Promise<void>[] = [];
  parser.on("field", (name, value) => {
    out.fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    const safe = path.basename(info.filename || "upload").replace(/[^\w.-]/g, "_");
    // One folder a file, so the file keeps its own name (a task id may be read from it).
    const folder = path.join(out.dir, String(writes.length));
    fs.mkdirSync(folder);
    const target = path.join(folder, safe);
    stream.on("limit", () => {
      out.tooLarge = true;
    });
    const weigher = new TextWeigher();
    out.weighed.set(target, weigher);
    stream.on("data", (chunk: Buffer) => weigher.push(chunk));
    const write = pipeline(stream, fs.createWriteStream(target));
    // Awaited below when the body arrives whole; a body cut off fails the parser first, and this one too.
    write.catch(() => {});
    writes.push(write);
    if (name === "file" && !out.file) out.file = { path: target, name: info.filename || "upload" };
    else if (name === "resolved") out.resolved.push(target);
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  body.on("data", (chunk: Buffer) => {
    out.bytes += chunk.length;
  });
  await pipeline(body, parser);
  await Promise.all(writes);
}

const json = (body: unknown, status: number) => Response.json(body, { status });

const RETRY_AFTER_SECONDS = 30;
const busy = (waiting: number) =>
  Response.json(
    {
      error:
        `the server is importing as much as its memory holds and ${waiting} upload(s) wait already: ` +
        `try again in ${RETRY_AFTER_SECONDS} s, or import from the command line`,
    },
    { status: 503, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
  );

const tooLarge = (maxBytes: number) =>
  json({ error: `the file is larger than the upload limit (${maxBytes} bytes): import it from the command line` }, 413);

export async function POST(request: Request) {
  const user = await requireRequest(request, "imports:write");
  if (user instanceof Response) return user;
  // When enough imports wait for memory already (decision 32), say so before the body is read.
  const budget = workBudget();
  if (budget.full) return busy(budget.waiting);
  const maxBytes = config().IMPORT_MAX_UPLOAD_BYTES;
  if (!request.headers.get("content-type")?.startsWith("multipart/form-data"))
    return json({ error: "send the file as multipart/form-data" }, 415);
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes + 1024 * 1024) return tooLarge(maxBytes);

  const received: Received = {
    dir: fs.mkdtempSync(path.join(os.tmpdir(), `${UPLOAD_DIR_PREFIX}${process.pid}-`)),
    file: null,
    resolved: [],
    fields: {},
    tooLarge: false,
    bytes: 0,
    weighed: new Map(),
  };
  const cleanup = () => fs.rmSync(received.dir, { recursive: true, force: true });
  const upload = await receiveUpload(request, received, maxBytes, user.id);
  if (upload instanceof Response) {
    cleanup();
    return upload;
  }
  // Reserved before anything is read whole (the resolved reports, then the file's records).
  const need = importMemory(
    [upload.file.path, ...received.resolved].map((p, i) => ({
      name: p,
      bytes: fs.statSync(p).size,
      // A resolved report is read whole: all it holds counts.
      weight: i === 0 ? fileWeight(p, received.weighed.get(p)!) : received.weighed.get(p)!.weight,
    })),
    readLimits(),
  );
  const reserving = budget.reserve(need);
  if (!reserving) {
    cleanup();
    return busy(budget.waiting);
  }
  return ndjson(async (send) => {
    let reservation: Reservation | null = null;
    try {
      // While others hold the memory, the browser is told how many wait (every 2 s, so the answer never idles).
      const ahead = budget.waiting;
      const telling = setInterval(() => send({ waiting: { uploads: budget.waiting } }), 2000);
      if (ahead) send({ waiting: { uploads: ahead } });
      reservation = await reserving.finally(() => clearInterval(telling));
      await importUpload(received, upload, user.id, send);
    } catch (e) {
      // Unexpected failures (database down) are logged here; the browser gets a message without internals.
      console.error("web import failed", e);
      if (!(e instanceof ImportInterrupted))
        await listRefused(upload.file.name, user.id, "the import stopped before it began (see the server log)");
      send({ error: "the import stopped: the database did not accept it; nothing was imported (see the server log)" });
    } finally {
      reservation?.release();
      cleanup();
    }
  });
}

/** Receives and checks the upload; one cut off is listed on the Import page with the reason. */
async function receiveUpload(
  request: Request,
  received: Received,
  maxBytes: number,
  userId: string,
): Promise<Response | { file: { path: string; name: string }; condition: Condition }> {
  try {
    await receive(request, received, maxBytes);
  } catch {
    const fileName = received.file?.name ?? "upload";
    const reason =
      `the upload was cut off after ${formatBytes(received.bytes)} (the connection closed or the ` +
      `form was malformed); nothing was imported`;
    await recordFailedImport({ fileName, format: "auto", source: "web", userId }, reason).catch((e) =>
      console.error("could not record a failed upload", e),
    );
    return json({ error: reason }, 400);
  }
  // However it ends, an upload with a file is listed on the Import page with why nothing was imported.
  const refuse = async (response: Response, reason: string) => {
    if (received.file) await listRefused(received.file.name, userId, reason, received.bytes);
    return response;
  };
  if (received.tooLarge)
    return refuse(
      tooLarge(maxBytes),
      `larger than the upload limit (${formatBytes(maxBytes)}, IMPORT_MAX_UPLOAD_BYTES)`,
    );
  if (!received.file) return json({ error: "no file was sent (field `file`)" }, 400);
  const fields = ConditionFieldsSchema.safeParse(received.fields);
  if (!fields.success)
    return refuse(
      json({ error: "bad condition fields", fields: z.flattenError(fields.error).fieldErrors }, 400),
      `bad condition fields: ${fields.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  return { file: received.file, condition: fields.data };
}

/** An upload that ended before its import, listed on the Import page with why. */
const listRefused = (fileName: string, userId: string, reason: string, fileBytes = 0) =>
  listRefusedUpload({ fileName, source: "web", userId, fileBytes }, reason);

/** Imports a received upload, sending its progress every 200 ms and then its result. */
async function importUpload(
  received: Received,
  upload: { file: { path: string; name: string }; condition: Condition },
  userId: string,
  send: (line: unknown) => void,
): Promise<void> {
  let resolved: ReturnType<typeof loadResolved>;
  try {
    resolved = loadResolved(received.resolved);
  } catch (e) {
    // A report's error names the file as uploaded, not the folder it was received in.
    const message = (e instanceof Error ? e.message : "unreadable resolved report")
      .replace(received.dir + path.sep, "")
      .replace(/^\d+[\\/]/, "");
    await listRefused(upload.file.name, userId, `the resolved report was refused: ${message}`);
    send({ error: message });
    return;
  }
  let last = 0;
  const result = await importFile(upload.file.path, {
    condition: upload.condition,
    resolved,
    source: "web",
    displayName: upload.file.name,
    userId,
    strict: received.fields.strict === "on",
    onProgress: (p) => {
      const now = Date.now();
      if (now - last > 200) {
        last = now;
        send({ progress: p });
      }
    },
  });
  send({ result });
}

/** An NDJSON answer, a line a `send`; if the browser leaves, the work still ends (listed on the Import page). */
function ndjson(work: (send: (line: unknown) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let listening = true;
      const send = (line: unknown) => {
        if (!listening) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        } catch {
          listening = false;
        }
      };
      try {
        await work(send);
      } finally {
        try {
          controller.close();
        } catch {
          /* the browser is gone */
        }
      }
    },
    cancel() {
      // The browser closed the answer; start() above goes on to the end of the work.
    },
  });
  return new Response(body, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}
