// What full-text search covers of a trajectory: its commands and the start of each tool output,
// as one document (lib/data/ingest.ts indexes it with to_tsvector('simple', …)). One small
// document a trajectory keeps the index and the import fast: parsing text into a tsvector is the
// costly part, so outputs (which may be tens of MB) are covered by their start only.

/** Characters of each command that search covers. */
export const COMMAND_PREFIX = 1000;
/** Characters at the start of each tool output that search covers. */
export const OUTPUT_PREFIX = 300;
/** Characters of one trajectory's document at most (a tsvector holds at most 1 MB). */
export const SEARCH_DOCUMENT_LIMIT = 64_000;

export class SearchDocument {
  private parts: string[] = [];
  private length = 0;

  private add(text: string, prefix: number): void {
    if (this.length >= SEARCH_DOCUMENT_LIMIT || !text) return;
    const part = text.slice(0, Math.min(prefix, SEARCH_DOCUMENT_LIMIT - this.length));
    this.parts.push(part);
    this.length += part.length + 1;
  }

  addCommand(text: string): void {
    this.add(text, COMMAND_PREFIX);
  }

  addOutput(text: string): void {
    this.add(text, OUTPUT_PREFIX);
  }

  text(): string {
    return this.parts.join("\n");
  }
}
