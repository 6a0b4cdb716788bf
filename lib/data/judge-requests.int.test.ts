// A trajectory's turns as a judge reads them, cut to its budget of characters (not bytes): a text of
// more bytes than the cap but no more characters is read whole; one of more characters is cut in the
// middle to the cap, with the marker (messages, reasoning, call inputs) or counted (outputs).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { importFile } from "@/lib/work/import/files";
import { trajectoryFixture } from "@/prisma/factories";
import { jsonl, tempFiles } from "@/test/temp-files";
import { judgeTurns } from "./judge-requests";

const { write } = tempFiles("sa-judge-requests-");
const CAP = 4000;
/** Two bytes a character in UTF-8, so that bytes and characters differ. */
const wide = (n: number, c = "é") => c.repeat(n);

describe("a trajectory's turns read for a judge", () => {
  it("cut each text by its characters: whole up to the cap, cut in the middle past it", async () => {
    const record = trajectoryFixture({
      id: "jq-1",
      benchmark: "jq",
      task: { id: "jq__t" },
      turns: [
        // 3,000 characters, 6,000 bytes: under the cap of 4,000 characters, over it in bytes.
        { role: "user", content: wide(3000) },
        {
          role: "assistant",
          content: wide(2000, "a") + wide(3000, "b"),
          reasoning: wide(3000, "ü"),
          tool_calls: [{ id: "c", name: "bash", input: wide(2500, "x") + wide(2500, "y") }],
        },
        { role: "tool", tool_call_id: "c", content: wide(3000, "ö") + wide(3000, "ß"), exit_code: 0 },
        { role: "assistant", content: wide(3999), tool_calls: [] },
        {
          role: "assistant",
          content: "two at once",
          tool_calls: [
            { id: "d", name: "cat", input: "a" },
            { id: "e", name: "ls", input: "b" },
          ],
        },
      ],
    });
    const r = await importFile(write("jq.jsonl", jsonl([record])), { condition: {}, resolved: null, source: "cli" });
    expect(r.ok).toBe(true);
    const { id } = await db().trajectory.findFirstOrThrow({ where: { externalId: "jq-1" }, select: { id: true } });
    const turns = await judgeTurns(id, CAP);
    expect(turns.map((t) => t.role)).toEqual(["user", "assistant", "tool", "assistant", "assistant"]);
    const [user, asked, output, last, both] = turns;
    // Each message with its own calls, in their order; none for a message without.
    expect(last!.calls).toEqual([]);
    expect(output!.calls).toEqual([]);
    expect(both!.calls).toEqual([
      { name: "cat", input: "a" },
      { name: "ls", input: "b" },
    ]);

    // Under the cap in characters, read whole, whatever its bytes.
    expect(user!.content).toBe(wide(3000));
    expect(last!.content).toBe(wide(3999));
    expect(asked!.reasoning).toBe(wide(3000, "ü"));
    expect(user!.reasoning).toBeNull();

    // 5,000 characters: the first 2,000 and the last 2,000 kept, the 1,000 between counted in the marker.
    expect(asked!.content).toBe(`${wide(2000, "a")}\n[… 1,000 characters cut …]\n${wide(2000, "b")}`);
    expect(asked!.calls).toEqual([
      { name: "bash", input: `${wide(2000, "x")}\n[… 1,000 characters cut …]\n${wide(2000, "y")}` },
    ]);

    // An output of 6,000 characters: its halves joined bare, and the 2,000 cut counted for the prompt's marker.
    expect(output!.content).toBe(wide(2000, "ö") + wide(2000, "ß"));
    expect(output!.contentCut).toBe(2000);
    expect(user!.contentCut).toBe(0);
  });
});
