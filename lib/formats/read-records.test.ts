// The reader's bounds: lines, records and decompressed sizes over their limits are error records
// (never exceptions, never the whole file in memory), and each shape of file is read once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import type { RawRecord } from "@/lib/formats/interchange";
import { trajectoryFixture, voteFixture } from "@/prisma/factories";
import { realFixture } from "@/test/fixtures";
import type { ReadLimits } from "./limits";
import { type Line, splitLines } from "./lines";
import { readRecords } from "./read-records";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sa-read-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, content: string | Buffer) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
};

const MiB = 1024 * 1024;
const LIMITS: ReadLimits = { maxRecordBytes: 64 * 1024, maxDecompressedBytes: 1024 * MiB, maxGzipRatio: 100 };
const condition = { benchmark: "swe-bench-verified", model: "m", network: true, prompt: "vanilla" as const, run: 1 };

async function read(file: string, limits: ReadLimits = LIMITS, task?: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const r of readRecords(file, { condition: { ...condition, task }, resolved: null, limits })) out.push(r);
  return out;
}
const errorsOf = (records: RawRecord[]) =>
  records.flatMap((r) => ("errors" in r ? r.errors.map((e) => ({ line: r.line, message: e.message })) : []));
const idsOf = (records: RawRecord[]) =>
  records.flatMap((r) => ("value" in r && (r.value as { id?: string }).id ? [(r.value as { id: string }).id] : []));

async function lines(chunks: Array<string | Buffer>, max: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const l of splitLines(Readable.from(chunks), max)) out.push(l);
  return out;
}

describe("splitLines", () => {
  it("splits across chunks, drops CR before LF, keeps a last line without a newline", async () => {
    expect(await lines(["ab", "c\r\nde", "\n\nf"], 10)).toEqual([
      { number: 1, tooLong: false, text: "abc" },
      { number: 2, tooLong: false, text: "de" },
      { number: 3, tooLong: false, text: "" },
      { number: 4, tooLong: false, text: "f" },
    ]);
  });

  it("decodes a character split between chunks", async () => {
    const bytes = Buffer.from("é€\n");
    expect(await lines([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)], 10)).toEqual([
      { number: 1, tooLong: false, text: "é€" },
    ]);
  });

  it("reports a line over the limit with its size and reads on", async () => {
    expect(await lines(["12345", "678\nok\n", "x".repeat(20)], 6)).toEqual([
      { number: 1, tooLong: true, bytes: 8 },
      { number: 2, tooLong: false, text: "ok" },
      { number: 3, tooLong: true, bytes: 20 },
    ]);
  });
});

describe("readRecords within limits", () => {
  const t1 = trajectoryFixture({ id: "r-1" });
  const t2 = trajectoryFixture({ id: "r-2" });

  it("a JSONL line over the record limit is an error for that line; the lines around it are read", async () => {
    const big = JSON.stringify({ ...trajectoryFixture({ id: "big" }), note: "x".repeat(100 * 1024) });
    const file = write("long-line.jsonl", `${[JSON.stringify(t1), big, JSON.stringify(t2)].join("\n")}\n`);
    const records = await read(file);
    expect(idsOf(records)).toEqual(["r-1", "r-2"]);
    expect(errorsOf(records)).toEqual([
      {
        line: 2,
        message: expect.stringMatching(/^this line is over the record limit of 64\.0 KB \(IMPORT_MAX_RECORD_BYTES\)/),
      },
    ]);
  });

  it("a gzip bomb is named as such and stops the read early, whatever the file is called", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(200 * MiB), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB);
    for (const name of ["bomb.jsonl.gz", "bomb.json.gz"]) {
      const started = performance.now();
      const errors = errorsOf(await read(write(name, bomb), { ...LIMITS, maxRecordBytes: 256 * MiB }));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(
        /^decompression bomb: this .* compressed file expands to more than 100 times its size/,
      );
      // 100 x its size (under 1 MB) is at most 100 MB of 200: refused before the end.
      expect(performance.now() - started).toBeLessThan(20_000);
    }
  });

  it("a compressed file past the decompressed limit is refused", async () => {
    const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify(trajectoryFixture({ id: `g-${i}` }))).join("\n");
    const file = write("many.jsonl.gz", zlib.gzipSync(text));
    const errors = errorsOf(await read(file, { ...LIMITS, maxDecompressedBytes: 100 * 1024 }));
    expect(errors.at(-1)!.message).toMatch(
      /expands to more than 100\.0 KB when decompressed; refused \(IMPORT_MAX_DECOMPRESSED_BYTES\)/,
    );
  });

  it("a JSON array of records streams record by record, numbered from 1", async () => {
    const v = voteFixture("r-1", "judge-a");
    const file = write("list.json", JSON.stringify([t1, t2, v], null, 2));
    const records = await read(file);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(idsOf(records)).toEqual(["r-1", "r-2"]);
    expect(errorsOf(records)).toEqual([]);
  });

  it("an element of a JSON array over the record limit is an error naming it", async () => {
    const file = write("fat-list.json", JSON.stringify([t1, { ...t2, note: "y".repeat(200 * 1024) }, t1]));
    const records = await read(file);
    expect(idsOf(records)).toEqual(["r-1"]);
    expect(errorsOf(records)).toEqual([
      { line: 2, message: expect.stringMatching(/^a record of this JSON array is over the record limit/) },
    ]);
  });

  it("a record is measured by what it holds: many small values are refused where one long text is not", async () => {
    // Within the 64 KB limit by bytes, each: 40 KB of one output, and 48 KB of 1,500 small turns.
    const turn = { role: "tool", content: "ok" };
    const many = { ...t1, id: "r-many", turns: Array.from({ length: 1500 }, () => turn) };
    const long = { ...t1, id: "r-long", turns: [{ role: "tool", content: "x".repeat(40 * 1024) }] };
    expect(JSON.stringify(many).length).toBeLessThan(64 * 1024);
    // Each turn holds { : , : and the list's , : 5 values, 1,500 of them 7,500 and a few more: 240 KB at 32 bytes each.
    const heavy = /^this line is too heavy: it holds 7,5\d\d values in [\d.]+ KB, which weigh [\d.]+ KB as an import/;
    const lines = await read(write("heavy.jsonl", `${JSON.stringify(long)}\n${JSON.stringify(many)}\n`));
    expect(idsOf(lines)).toEqual(["r-long"]);
    expect(errorsOf(lines)).toEqual([{ line: 2, message: expect.stringMatching(heavy) }]);
    // A document over several lines, and an element of a list, the same.
    const doc = await read(write("heavy.json", JSON.stringify(many).replace(',"turns":', ',\n"turns":')));
    expect(errorsOf(doc)).toEqual([
      { line: 1, message: expect.stringMatching(/^this JSON document is too heavy: it holds 7,5\d\d values/) },
    ]);
    // A list streams in chunks of 64 KB, weighed a chunk behind the values it gives: at a 1 MB limit,
    // 600 KB of 80,000 small turns (2.5 MB as values) is refused, 900 KB of one output not.
    const longer = { ...long, turns: [{ role: "tool", content: "x".repeat(900 * 1024) }] };
    const more = { ...many, turns: Array.from({ length: 80_000 }, () => ({ role: "tool" })) };
    const list = await read(write("heavy-list.json", JSON.stringify([longer, more, t2])), {
      ...LIMITS,
      maxRecordBytes: MiB,
    });
    expect(idsOf(list)).toEqual(["r-long"]);
    expect(errorsOf(list)).toEqual([
      { line: 2, message: expect.stringMatching(/^a record of this JSON array is too heavy: it holds [\d,]+ values/) },
    ]);
  });

  it("a JSON array that is broken says where", async () => {
    const records = await read(write("broken.json", `[${JSON.stringify(t1)}, {"type": "trajectory",`));
    expect(idsOf(records)).toEqual(["r-1"]);
    expect(errorsOf(records)).toEqual([{ line: 2, message: expect.stringMatching(/^not valid JSON/) }]);
  });

  it("an agent's list of messages (mini-swe-agent's legacy list) is one document", async () => {
    const doc = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Fix the bug." },
      { role: "assistant", content: "```bash\nls\n```" },
    ];
    const records = await read(write("legacy.traj.json", JSON.stringify(doc)), LIMITS, "astropy__astropy-13033");
    expect(errorsOf(records)).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]!.format).toMatch(/^mini-swe-agent/);
  });

  it("JSON Lines not named .jsonl, a pretty-printed document and an empty file", async () => {
    const unnamed = await read(write("lines.json", `${JSON.stringify(t1)}\nnot json\n${JSON.stringify(t2)}\n`));
    expect(idsOf(unnamed)).toEqual(["r-1", "r-2"]);
    expect(errorsOf(unnamed)).toEqual([{ line: 2, message: expect.stringMatching(/^not valid JSON/) }]);

    const real = await read(
      realFixture("mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__django__django-14752.traj.json"),
      { ...LIMITS, maxRecordBytes: 256 * MiB },
    );
    expect(real).toHaveLength(1);
    expect(real[0]!.format).toMatch(/^mini-swe-agent/);

    const tooBig = await read(write("pretty.json", JSON.stringify({ ...t1, note: "z".repeat(100 * 1024) }, null, 2)));
    expect(errorsOf(tooBig)).toEqual([
      {
        line: 1,
        message: expect.stringMatching(
          /^this line is over the record limit|^this JSON document is over the record limit/,
        ),
      },
    ]);

    expect(errorsOf(await read(write("empty.json", "  \n")))).toEqual([{ line: 1, message: "the file is empty" }]);
  });
});

describe("archives", () => {
  it("an archive listing more entries than the limit is refused by count, whatever they hold", async () => {
    const { ZipFile } = await import("yazl");
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify({ eval: { task: "t", model: "m" } })), "header.json");
    // Eleven empty entries no import reads, over a limit of ten.
    for (let i = 0; i < 11; i++) zip.addBuffer(Buffer.alloc(0), `_journal/summaries/${i}.json`);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = write("many.eval", Buffer.concat(chunks));
    expect(errorsOf(await read(file, { ...LIMITS, maxArchiveEntries: 10 }))).toEqual([
      { line: 1, message: "this archive has more than 10 entries" },
    ]);
    // Twelve entries in all are within a limit of twelve: the log is read (it holds no sample).
    expect(errorsOf(await read(file, { ...LIMITS, maxArchiveEntries: 12 }))).toEqual([
      { line: 1, message: "this .eval archive holds no samples/*.json" },
    ]);
  });
});
