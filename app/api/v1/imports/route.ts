// POST /api/v1/imports?name=FILE[&condition…]: one file in any format, imported as the Import page does (200/422).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { apiError, v1Route } from "@/lib/api/v1";
import { ImportSummarySchema, queryOf, V1_QUERIES } from "@/lib/api/v1-spec";
import { config } from "@/lib/config";
import { listRefusedUpload } from "@/lib/data/import/import-row";
import { AppError } from "@/lib/errors";
import { fileWeight, importMemory, readLimits } from "@/lib/formats/limits";
import { TextWeigher } from "@/lib/formats/weight";
import { workBudget } from "@/lib/server/memory-budget";
import { UPLOAD_DIR_PREFIX } from "@/lib/server/recovery";
import { importFile } from "@/lib/work/import/files";

export const dynamic = "force-dynamic";

/** The answer when imports hold as much memory as they may: come back later. */
const busy = () =>
  apiError(503, "BUSY", "the server is importing as much as its memory holds: try again in 30 s", {
    "retry-after": "30",
  });

/** Streams the body to `target`, refusing it (413) past `maxBytes`. */
async function receive(request: Request, target: string, maxBytes: number): Promise<TextWeigher> {
  if (!request.body) throw new AppError("BAD_INPUT", "send the file as the request's body", "body");
  let bytes = 0;
  // Weighed as it arrives, so the memory its import may hold is reserved before it is read.
  const weigher = new TextWeigher();
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      weigher.push(chunk);
      if (bytes > maxBytes) done(new AppError("TOO_LARGE", `the file is larger than the limit (${maxBytes} bytes)`));
      else done(null, chunk);
    },
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  await pipeline(body, counted, fs.createWriteStream(target)).catch((e: unknown) => {
    if (e instanceof AppError) throw e;
    throw new AppError("BAD_INPUT", "the body was cut off before its end; nothing was imported", "body");
  });
  if (bytes === 0) throw new AppError("BAD_INPUT", "the body is empty: send the file as the request's body", "body");
  return weigher;
}

/** A file refused before its import: listed as failed with the reason (best effort: the database may be down). */
const listRefused = (fileName: string, userId: string, e: AppError) =>
  listRefusedUpload({ fileName, source: "api", userId }, e.message);

export const POST = v1Route("imports:write", async (request, actor) => {
  const { name: given, strict, ...condition } = queryOf(V1_QUERIES.imports, request);
  const name = path.basename(given || "upload").replace(/[^\w.-]/g, "_") || "upload";
  const budget = workBudget();
  if (budget.full) return busy();
  const maxBytes = config().IMPORT_MAX_UPLOAD_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) {
    const tooLarge = new AppError("TOO_LARGE", `the file is larger than the limit (${maxBytes} bytes)`);
    await listRefused(name, actor.id, tooLarge);
    throw tooLarge;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${UPLOAD_DIR_PREFIX}${process.pid}-`));
  try {
    const file = path.join(dir, name);
    // However it ends, a file sent is listed on the Import page with why nothing was imported.
    const weighed = await receive(request, file, maxBytes).catch(async (e: unknown) => {
      if (e instanceof AppError) await listRefused(name, actor.id, e);
      throw e;
    });
    // Memory reserved before anything is read whole, as for the Import page (waits its turn).
    const reserving = budget.reserve(
      importMemory([{ name: file, bytes: weighed.bytes, weight: fileWeight(file, weighed) }], readLimits()),
    );
    if (!reserving) return busy();
    const reservation = await reserving;
    try {
      const result = await importFile(file, {
        condition,
        resolved: null,
        source: "api",
        displayName: name,
        userId: actor.id,
        strict: strict ?? false,
      });
      return Response.json(ImportSummarySchema.parse({ ...result, file: name }), { status: result.ok ? 200 : 422 });
    } finally {
      reservation.release();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
