// POST a file to import (multipart/form-data: `file`, optional `resolved` report files, and the
// condition fields for agent-harness files). The file is streamed to a temporary file, never held
// in memory, then imported as the command line does. The answer streams NDJSON: progress lines
// {"progress": {bytes, records}} while importing, then {"result": …}.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { z } from "zod";
import { importFile, loadResolved } from "@/lib/files/import-files";
import { ConditionFieldsSchema } from "@/lib/import/condition";
import { requireRequest } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Uploads larger than this are refused (413): such files go through the command line. */
const MAX_UPLOAD_BYTES = Number(process.env.IMPORT_MAX_UPLOAD_BYTES ?? 1024 * 1024 * 1024);

type Received = { dir: string; file: { path: string; name: string } | null; resolved: string[]; fields: Record<string, string>; tooLarge: boolean };

async function receive(request: Request, dir: string): Promise<Received> {
  const out: Received = { dir, file: null, resolved: [], fields: {}, tooLarge: false };
  const parser = busboy({ headers: Object.fromEntries(request.headers), limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 20 } });
  const writes: Promise<void>[] = [];
  parser.on("field", (name, value) => { out.fields[name] = value; });
  parser.on("file", (name, stream, info) => {
    const safe = path.basename(info.filename || "upload").replace(/[^\w.-]/g, "_");
    const target = path.join(dir, `${writes.length}-${safe}`);
    stream.on("limit", () => { out.tooLarge = true; });
    writes.push(pipeline(stream, fs.createWriteStream(target)));
    if (name === "file" && !out.file) out.file = { path: target, name: info.filename || "upload" };
    else if (name === "resolved") out.resolved.push(target);
  });
  await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
  await Promise.all(writes);
  return out;
}

const json = (body: unknown, status: number) => Response.json(body, { status });

export async function POST(request: Request) {
  const user = await requireRequest(request, "imports:write");
  if (user instanceof Response) return user;
  if (!request.headers.get("content-type")?.startsWith("multipart/form-data")) return json({ error: "send the file as multipart/form-data" }, 415);
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_UPLOAD_BYTES + 1024 * 1024) return json({ error: `the file is larger than the upload limit (${MAX_UPLOAD_BYTES} bytes): import it from the command line` }, 413);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shortcut-audit-upload-"));
  let received: Received;
  try {
    received = await receive(request, dir);
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return json({ error: "the upload was cut off or malformed" }, 400);
  }
  const cleanup = () => fs.rmSync(received.dir, { recursive: true, force: true });
  if (received.tooLarge) { cleanup(); return json({ error: `the file is larger than the upload limit (${MAX_UPLOAD_BYTES} bytes): import it from the command line` }, 413); }
  if (!received.file) { cleanup(); return json({ error: "no file was sent (field `file`)" }, 400); }
  const fields = ConditionFieldsSchema.safeParse(received.fields);
  if (!fields.success) { cleanup(); return json({ error: "bad condition fields", fields: z.flattenError(fields.error).fieldErrors }, 400); }
  let resolved;
  try {
    resolved = loadResolved(received.resolved);
  } catch (e) {
    cleanup();
    return json({ error: e instanceof Error ? e.message.replace(received.dir + path.sep, "") : "unreadable resolved report" }, 400);
  }

  const file = received.file;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => controller.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
      let last = 0;
      try {
        const result = await importFile(file.path, {
          condition: fields.data, resolved, source: "web", displayName: file.name, userId: user.id,
          onProgress: (p) => { const now = Date.now(); if (now - last > 200) { last = now; send({ progress: p }); } },
        });
        send({ result });
      } catch (e) {
        // Unexpected failures (database down) are logged here; the browser gets a message without internals.
        console.error("web import failed", e);
        send({ error: "the import stopped: the database did not accept it; nothing was imported (see the server log)" });
      } finally {
        cleanup();
        controller.close();
      }
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}
