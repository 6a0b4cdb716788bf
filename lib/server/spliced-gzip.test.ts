import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deflatePieces, splicedGzip } from "./spliced-gzip";

/** A body with places of `gap` bytes at `at`, and the same body with other bytes there. */
const body = fc
  .record({
    bytes: fc.uint8Array({ minLength: 0, maxLength: 3000 }),
    repeat: fc.integer({ min: 1, max: 40 }),
    gap: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(70_000)),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
    seed: fc.nat(255),
  })
  .map(({ bytes, repeat, gap, cuts, seed }) => {
    // Repeated, so it compresses (a back-reference across a place would give the old bytes back).
    const base = Buffer.concat(Array.from({ length: repeat }, () => Buffer.from(bytes)));
    const at: number[] = [];
    let from = 0;
    for (const c of [...cuts].sort((a, b) => a - b)) {
      const i = from + (c % (Math.max(0, base.length - from) + 1));
      at.push(i);
      from = i + gap;
    }
    const size = Math.max(base.length, at.length ? at.at(-1)! + gap : 0);
    const old = Buffer.alloc(size);
    base.copy(old);
    for (const i of at) old.fill(0x41, i, i + gap);
    const anew = Buffer.from(old);
    for (const i of at) for (let j = 0; j < gap; j++) anew[i + j] = (seed + j * 7 + i) & 0xff;
    return { old, anew, at, gap };
  });

describe("a kept page gzipped once, sent with new bytes in its places", () => {
  it("unzips to the body as sent, whatever the places and their bytes", async () => {
    await fc.assert(
      fc.asyncProperty(body, async ({ old, anew, at, gap }) => {
        const pieces = await deflatePieces(old, at, gap);
        expect(pieces).toHaveLength(at.length + 1);
        // gunzip checks the trailer's CRC-32 and length too.
        expect(gunzipSync(splicedGzip(pieces, anew, at, gap)).equals(anew)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("compresses: a page's repeated markup with a nonce in its scripts", async () => {
    const nonce = "A".repeat(24);
    const row = (i: number) => `<tr><td class="n">${i}</td><td>claude-3.5-sonnet</td><td>swe-bench</td></tr>`;
    const html = Buffer.from(
      Array.from(
        { length: 40 },
        (_, k) =>
          `${Array.from({ length: 100 }, (_, i) => row(k * 100 + i)).join("")}<script nonce="${nonce}">x</script>`,
      ).join(""),
    );
    const at: number[] = [];
    for (let i = html.indexOf(nonce); i !== -1; i = html.indexOf(nonce, i + 24)) at.push(i);
    expect(at).toHaveLength(40);
    const gz = splicedGzip(await deflatePieces(html, at, 24), html, at, 24);
    expect(gunzipSync(gz).equals(html)).toBe(true);
    expect(gz.length).toBeLessThan(html.length / 10);
  });

  it("refuses pieces that do not match the places", () => {
    expect(() => splicedGzip([Buffer.alloc(0)], Buffer.from("abc"), [1], 1)).toThrow(/a piece between/);
  });
});
