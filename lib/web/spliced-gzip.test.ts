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
    const fill = Buffer.from(Array.from({ length: gap }, (_, j) => (seed + j * 7) & 0xff));
    const anew = Buffer.from(old);
    for (const i of at) fill.copy(anew, i);
    return { old, anew, at, gap, fill };
  });

describe("a kept page gzipped once, sent with new bytes in its places", () => {
  it("unzips to the body as sent, whatever the places and their bytes", async () => {
    await fc.assert(
      fc.asyncProperty(body, async ({ old, anew, at, gap, fill }) => {
        const pieces = await deflatePieces(old, at, gap);
        expect(pieces).toHaveLength(at.length + 1);
        // gunzip checks the trailer's CRC-32 and length too.
        // The kept body (its old bytes in the places) and the fill: the new bytes in every place.
        expect(gunzipSync(splicedGzip(pieces, old, at, fill)).equals(anew)).toBe(true);
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
    const other = "B".repeat(24);
    const gz = splicedGzip(await deflatePieces(html, at, 24), html, at, Buffer.from(other));
    expect(gunzipSync(gz).toString()).toBe(html.toString().replaceAll(nonce, other));
    expect(gz.length).toBeLessThan(html.length / 10);
  });

  it("refuses pieces that do not match the places", () => {
    expect(() => splicedGzip([Buffer.alloc(0)], Buffer.from("abc"), [1], Buffer.from("x"))).toThrow(/a piece between/);
  });
});
