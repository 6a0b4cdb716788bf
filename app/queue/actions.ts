"use server";
import { requireAction } from "@/lib/auth/session";
import { refusal } from "@/lib/format";
import { LabelConflict, submitLabel, type LabelForm } from "@/lib/data/queue";
import { nextPosition } from "@/lib/data/studies";

export type SaveResult = { ok: true; status: "saved" | "unchanged"; updatedAt: string; next: number | null } | { ok: false; error: string };

export async function saveLabel(form: LabelForm, position: number): Promise<SaveResult> {
  const actor = await requireAction("labels:write");
  try {
    const r = await submitLabel(actor, form);
    return { ok: true, ...r, next: await nextPosition(actor, form.studyId, position) };
  } catch (e) {
    return { ok: false, error: refusal(e, [LabelConflict]) };
  }
}
