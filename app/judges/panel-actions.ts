"use server";
// The panel's changes: save, adopt, compare a judge outside it; each checks permission and origin.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { adoptPanel, savePanel } from "@/lib/data/panel-set";
import { type PanelMember, panelsNow, parseMember } from "@/lib/data/panels";
import { memberText } from "@/lib/domain/panel-compare";
import { comparePanelsHref } from "@/lib/domain/panel-compare-table";
import { AppError, formErrors } from "@/lib/errors";
import { checkedForm } from "@/lib/web/action-input";
import { attempt, type SavedState } from "@/lib/web/form-action";

const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

function membersOf(data: FormData): PanelMember[] {
  const members = data.getAll("member").map((m) => parseMember(String(m)));
  const bad = members.find((m) => "error" in m);
  if (bad && "error" in bad) throw new AppError("BAD_INPUT", bad.error, "member");
  if (!members.length) throw new AppError("BAD_INPUT", "choose the panel's judges", "member");
  return members as PanelMember[];
}

/** The panel form: `do=adopt` puts the judges chosen in force; `do=compare` saves them and compares. */
export async function panelFormAction(_: SavedState, form: FormData): Promise<SavedState> {
  const actor = await requireAction("judges:write");
  let saved: string | null = null;
  const state = await attempt("/judges", async () => {
    const data = checkedForm(form);
    const adopt = data.get("do") === "adopt";
    const panel = await savePanel(actor, membersOf(data), { name: text(data, "name"), adopt });
    if (!adopt) saved = panel.name;
    return `${panel.name} is in force: every figure follows it`;
  });
  if (saved !== null) redirect(comparePanelsHref(saved));
  return state;
}

export async function adoptPanelAction(_: SavedState, form: FormData): Promise<SavedState> {
  const actor = await requireAction("judges:write");
  const state = await attempt("/judges", async () => {
    const name = text(checkedForm(form), "panel");
    if (!name) throw new AppError("BAD_INPUT", "name a panel", "panel");
    const panel = await adoptPanel(actor, name);
    return `${panel.name} is in force: every figure follows it`;
  });
  if (state.saved) revalidatePath("/judges/compare");
  return state;
}

/** The panel in force plus this judge at this version, saved as a candidate (again if saved before) and compared. */
export async function compareWithAction(_: SavedState, form: FormData): Promise<SavedState> {
  const actor = await requireAction("judges:write");
  let target: string | null = null;
  try {
    const added = membersOf(checkedForm(form));
    const inForce = (await panelsNow()).find((p) => p.inForce);
    if (!inForce) throw new AppError("BAD_INPUT", "no panel is in force", "member");
    const name = `${inForce.name} + ${added.map(memberText).join(", ")}`.slice(0, 200);
    const panel = await savePanel(actor, [...inForce.judges, ...added], { adopt: false, defaultName: name });
    target = comparePanelsHref(panel.name);
  } catch (e) {
    return { ...formErrors(e), saved: null };
  }
  redirect(target);
}
