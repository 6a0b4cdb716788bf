// What full-text search covers of a trajectory: its commands, and the start of each tool output, as
// two documents (lib/data/ingest.ts indexes each with to_tsvector('simple', …)). Parsing text into a
// tsvector is the costly part, so outputs (which may be tens of MB) are covered by their start only.
// Two documents, not one: a phrase found in many trajectories (a common command) is checked against
// the small commands document, not read out of every trajectory's large one (README, Performance).

/** Characters of each command that search covers. */
export const COMMAND_PREFIX = 1000;
/** Characters at the start of each tool output that search covers. */
export const OUTPUT_PREFIX = 300;
/** Characters of one trajectory's document at most, each (a tsvector holds at most 1 MB). */
export const SEARCH_DOCUMENT_LIMIT = 64_000;

/** Starts of texts, one a line, up to SEARCH_DOCUMENT_LIMIT characters. */
class Document {
  private parts: string[] = [];
  private length = 0;

  add(text: string, prefix: number): void {
    if (this.length >= SEARCH_DOCUMENT_LIMIT || !text) return;
    const part = text.slice(0, Math.min(prefix, SEARCH_DOCUMENT_LIMIT - this.length));
    this.parts.push(part);
    this.length += part.length + 1;
  }

  text(): string {
    return this.parts.join("\n");
  }
}

export class SearchDocument {
  private readonly commands = new Document();
  private readonly outputs = new Document();

  addCommand(text: string): void {
    this.commands.add(text, COMMAND_PREFIX);
  }

  addOutput(text: string): void {
    this.outputs.add(text, OUTPUT_PREFIX);
  }

  texts(): { commands: string; outputs: string } {
    return { commands: this.commands.text(), outputs: this.outputs.text() };
  }
}
