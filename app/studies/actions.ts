"use server";
import { redirect } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { setBlindElsewhere } from "@/lib/data/blind-elsewhere";
import { createStudy, draftStudy, type StudyDraft } from "@/lib/data/studies";
import { type FormErrors, formErrors, NO_ERRORS } from "@/lib/errors";
import { checkedForm, checkedId } from "@/lib/web/action-input";
import { attempt, type SavedState } from "@/lib/web/form-action";

/** The study form after a submission: the draw to preview, or the messages by field. */
export type DraftState = FormErrors & { draft: StudyDraft | null };

/** The form as the data layer reads it; a stratum's name travels as a value (it may hold quotes). */
function designFrom(data: FormData) {
  const strata = data.getAll("stratum").map(String);
  const given = data.getAll("stratumSize").map(String);
  const sizes: Record<string, string> = {};
  strata.forEach((s, i) => {
    if (given[i]?.trim()) sizes[s] = given[i]!;
  });
  return {
    name: data.get("name"),
    seed: data.get("seed"),
    size: data.get("size"),
    sizes,
    overlap: data.get("overlap"),
    blind: data.get("blind") === "on",
    blindElsewhere: data.get("blindElsewhere") === "on",
    annotators: data.getAll("annotators").map(String),
  };
}

export async function previewStudy(_: DraftState, form: FormData): Promise<DraftState> {
  const actor = await requireAction("studies:write");
  try {
    return { ...NO_ERRORS, draft: await draftStudy(actor, designFrom(checkedForm(form))) };
  } catch (e) {
    return { ...formErrors(e), draft: null };
  }
}

export async function saveStudy(_: DraftState, form: FormData): Promise<DraftState> {
  const actor = await requireAction("studies:write");
  let id: number;
  try {
    const data = checkedForm(form);
    id = await createStudy(actor, designFrom(data), String(data.get("digest") ?? ""));
  } catch (e) {
    return { ...formErrors(e), draft: null };
  }
  redirect(`/studies?created=${id}`);
}

/** A blind study's setting: withhold a pending item's trajectory from its labeller elsewhere, or not. */
export async function changeBlindElsewhere(_: SavedState, form: FormData): Promise<SavedState> {
  const actor = await requireAction("studies:write");
  return attempt("/studies", () => {
    const data = checkedForm(form);
    return setBlindElsewhere(actor, checkedId(data.get("study"), "study"), data.get("blindElsewhere") === "on");
  });
}
