"use server";
import { forbidden } from "next/navigation";
import type { VerdictFormInput, VerdictSaveResult } from "@/components/forms/verdict-form";
import { PermissionDenied } from "@/lib/auth/permissions";
import { requireAction } from "@/lib/auth/session";
import { reviewQueue, saveGold } from "@/lib/data/review";
import { errorText } from "@/lib/errors";
import { checkedId, checkedValue } from "@/lib/web/action-input";

/** Saves a gold label on an item of a study (bound by the page); next: the next item without one. */
export async function saveGoldLabel(
  studyId: number,
  trajectoryId: number,
  form: VerdictFormInput,
): Promise<VerdictSaveResult> {
  const actor = await requireAction("gold:write");
  try {
    checkedValue(form, "form");
    [studyId, trajectoryId] = [checkedId(studyId, "study"), checkedId(trajectoryId, "trajectory")];
    const r = await saveGold(actor, { ...form, studyId, trajectoryId });
    const next = (await reviewQueue(actor, studyId)).find((i) => !i.adjudicated && i.trajectoryId !== trajectoryId);
    return { ok: true, status: r.status, next: next ? `/review/${studyId}/${next.trajectoryId}` : null };
  } catch (e) {
    if (e instanceof PermissionDenied) forbidden();
    return { ok: false, error: errorText(e) };
  }
}
