// A step of the integration tests' random writes: a panel of some of the judges put in force.
import { setPanel } from "@/lib/data/panel-set";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

/** Each judge kept with chance 0.6; the panel put in force, unless empty or refused. What it did. */
export async function randomPanel(random: () => number): Promise<string> {
  const judges = (await db().judge.findMany({ select: { name: true }, orderBy: { id: "asc" } })).map((j) => j.name);
  const members = judges.filter(() => random() < 0.6);
  if (!members.length) return "no panel";
  try {
    await setPanel(
      null,
      members.map((judge) => ({ judge, promptVersion: null })),
    );
  } catch (e) {
    // Judges whose votes carry different categories make no panel: the one in force stays.
    if (e instanceof AppError && e.message.includes("the same categories")) return `no panel: ${e.message}`;
    throw e;
  }
  return `panel ${members.join(" ")}`;
}
