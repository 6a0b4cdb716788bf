// An import within its bounds: the file's checksum whatever its kind, a decompression bomb refused,
// a progress listener that fails.

import { createHash } from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { trajectoryFixture } from "@/prisma/factories";
import { jsonl, tempFiles } from "@/test/temp-files";
import { importFile, loadResolved } from "./files";

const { write } = tempFiles("sa-import-bounds-");
const trajectoryCount = () => db().trajectory.count();

describe("importFile within bounds", () => {
  it("stores the SHA-256 of the file as it is on disk, whatever kind of file it is", async () => {
    const records = [
      trajectoryFixture({ id: "sha-1", task: { id: "sha" } }),
      trajectoryFixture({ id: "sha-2", task: { id: "sha" }, run: 2 }),
    ];
    const kinds: Array<[string, string | Buffer]> = [
      ["sha.jsonl", jsonl(records)],
      ["sha-array.json", JSON.stringify(records, null, 2)],
      ["sha-doc.json", JSON.stringify(records[0], null, 2)],
      ["sha-unnamed-lines.json", jsonl(records)],
      ["sha.jsonl.gz", zlib.gzipSync(jsonl(records))],
      ["sha-array.json.gz", zlib.gzipSync(JSON.stringify(records))],
    ];
    for (const [name, content] of kinds) {
      const file = write(name, content);
      const r = await importFile(file, { condition: {}, resolved: null, source: "cli" });
      expect(r.ok, name).toBe(true);
      const stored = await db().import.findUniqueOrThrow({ where: { id: r.importId }, select: { fileSha256: true } });
      expect(stored.fileSha256, name).toBe(createHash("sha256").update(fs.readFileSync(file)).digest("hex"));
    }
  });

  it("a gzip bomb ends as a failed import naming it, with nothing written", async () => {
    const before = await trajectoryCount();
    const bomb = zlib.gzipSync(Buffer.alloc(400 * 1024 * 1024), { level: 9 });
    const r = await importFile(write("bomb.json.gz", bomb), { condition: {}, resolved: null, source: "web" });
    expect(r).toMatchObject({
      ok: false,
      errors: [
        {
          message: expect.stringMatching(
            /^decompression bomb: this .* compressed file expands to more than 100 times its size/,
          ),
        },
      ],
    });
    const row = await db().import.findUniqueOrThrow({
      where: { id: r.importId },
      select: { status: true, finishedAt: true },
    });
    expect(row.status).toBe("FAILED");
    expect(row.finishedAt).not.toBeNull();
    expect(await trajectoryCount()).toBe(before);
  });

  it("a resolved report larger than a record is refused before it is read", () => {
    // Sparse: 65 MB on paper, over the 64 MB record limit, nothing on disk; read whole it would take the heap.
    const file = write("huge-results.json", "");
    fs.truncateSync(file, 65 * 1024 * 1024);
    expect(() => loadResolved([file])).toThrow(
      /huge-results\.json: 65\.0 MB is over the record limit of 64\.0 MB \(IMPORT_MAX_RECORD_BYTES\)/,
    );
    expect(loadResolved([write("results.json", JSON.stringify({ resolved: ["a"] }))])!("a")).toBe(true);
  });

  it("a progress listener that throws (a browser gone) fails the import neither before nor after commit", async () => {
    const records = Array.from({ length: 250 }, (_, i) =>
      trajectoryFixture({ id: `prog-${i}`, task: { id: "prog" }, run: i + 1 }),
    );
    let calls = 0;
    const r = await importFile(write("progress.jsonl", jsonl(records)), {
      condition: {},
      resolved: null,
      source: "web",
      onProgress: () => {
        calls += 1;
        throw new Error("Invalid state: Controller is already closed");
      },
    });
    expect(calls).toBeGreaterThan(1);
    expect(r).toMatchObject({ ok: true, counts: { trajectories: 250 } });
    const row = await db().import.findUniqueOrThrow({
      where: { id: r.importId },
      select: { status: true, trajectories: true },
    });
    expect(row).toEqual({ status: "SUCCEEDED", trajectories: 250 });
  });
});
