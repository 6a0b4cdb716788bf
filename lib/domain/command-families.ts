// Commands grouped by shape: quoted strings, hashes, paths and numbers become ‹…›, ‹sha›, ‹path›, ‹n›.
import { type Condition, compareConditions } from "./results";

const URL = /\b(https?|ftp|git|ssh):\/\/([^/\s'"]+)[^\s'"]*/g;
const QUOTED = /'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g;
const HASH = /\b[0-9a-f]{7,40}\b/g;
const PATH = /(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}\/?|(?:[\w.@+-]+\/){2,}[\w.@+-]*/g;
const NUMBER = /\b\d+(?:\.\d+)*\b/g;

export function commandShape(command: string): string {
  return command
    .replace(URL, (_, scheme: string, host: string) => `${scheme}://${host}/‹…›`)
    .replace(QUOTED, "‹…›")
    .replace(HASH, (h) => (/\d/.test(h) && /[a-f]/.test(h) ? "‹sha›" : h))
    .replace(PATH, "‹path›")
    .replace(NUMBER, "‹n›")
    .replace(/\s+/g, " ")
    .trim();
}

export type MatchedCommand = Condition & { trajectoryId: number; step: number; command: string };
export type CommandFamily = {
  shape: string;
  /** Commands in the family, and the distinct trajectories they are in. */
  commands: number;
  trajectories: number;
  byCondition: Array<Condition & { commands: number }>;
  examples: MatchedCommand[];
};

/** The commands grouped by shape, the largest family first (then by shape). */
export function commandFamilies(matched: readonly MatchedCommand[], examples = 3): CommandFamily[] {
  const groups = new Map<string, MatchedCommand[]>();
  for (const m of matched) {
    const shape = commandShape(m.command);
    groups.set(shape, [...(groups.get(shape) ?? []), m]);
  }
  return [...groups.entries()]
    .map(([shape, ms]) => {
      const conditions = new Map<string, Condition & { commands: number }>();
      for (const m of ms) {
        const key = `${m.benchmark}\u0000${m.model}\u0000${m.network}\u0000${m.prompt}`;
        const c = conditions.get(key) ?? {
          benchmark: m.benchmark,
          model: m.model,
          network: m.network,
          prompt: m.prompt,
          commands: 0,
        };
        c.commands++;
        conditions.set(key, c);
      }
      const ordered = [...ms].sort((a, b) => a.trajectoryId - b.trajectoryId || a.step - b.step);
      return {
        shape,
        commands: ms.length,
        trajectories: new Set(ms.map((m) => m.trajectoryId)).size,
        byCondition: [...conditions.values()].sort(compareConditions),
        examples: ordered.slice(0, examples),
      };
    })
    .sort((a, b) => b.commands - a.commands || a.shape.localeCompare(b.shape));
}
