// A step of the integration tests' random writes: a panel of some of the judges put in force.
import { setPanel } from "@/lib/data/panel-set";
import { db } from "@/lib/db";

/** Each judge kept with chance 0.6; the panel put in force, unless it would be empty. What it did. */
export async function randomPanel(random: () => number): Promise<string> {
  const judges = (await db().judge.findMany({ select: { name: true }, orderBy: { id: "asc" } })).map((j) => j.name);
  const members = judges.filter(() => random() < 0.6);
  if (!members.length) return "no panel";
  await setPanel(
    null,
    members.map((judge) => ({ judge, promptVersion: null })),
  );
  return `panel ${members.join(" ")}`;
}
