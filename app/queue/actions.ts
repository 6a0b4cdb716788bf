"use server";
import { forbidden } from "next/navigation";
import { z } from "zod";
import type { VerdictFormInput, VerdictSaveResult } from "@/components/forms/verdict-form";
import { PermissionDenied } from "@/lib/auth/permissions";
import { requireAction } from "@/lib/auth/session";
import { type LabelForm, submitLabel } from "@/lib/data/queue";
import { nextPosition } from "@/lib/data/studies";
import { PG_INT_MAX } from "@/lib/domain/params";
import { errorText } from "@/lib/errors";
import { checkedId, checkedValue } from "@/lib/web/action-input";

const Position = z.number().int().min(0).max(PG_INT_MAX);

/** Saves the actor's label on the item at `position` of a study (bound by the page); next: the next unlabelled item. */
export async function saveLabel(
  studyId: number,
  trajectoryId: number,
  position: number,
  form: VerdictFormInput,
): Promise<VerdictSaveResult> {
  const actor = await requireAction("labels:write");
  try {
    checkedValue(form, "form");
    [studyId, trajectoryId] = [checkedId(studyId, "study"), checkedId(trajectoryId, "trajectory")];
    const at = Position.parse(position);
    const r = await submitLabel(actor, { ...form, studyId, trajectoryId } as LabelForm);
    const next = await nextPosition(actor, studyId, at);
    return { ok: true, status: r.status, next: next === null ? null : `/queue/${studyId}/${next}` };
  } catch (e) {
    // An item that is not this annotator's: refused as any action they may not take (403).
    if (e instanceof PermissionDenied) forbidden();
    return { ok: false, error: errorText(e) };
  }
}
