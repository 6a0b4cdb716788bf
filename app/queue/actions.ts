"use server";
import { forbidden } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { PermissionDenied } from "@/lib/auth/permissions";
import { errorText } from "@/lib/errors";
import { submitLabel, type LabelForm } from "@/lib/data/queue";
import { nextPosition } from "@/lib/data/studies";
import { z } from "zod";
import { PG_INT_MAX } from "@/lib/domain/params";

const Position = z.number().int().min(0).max(PG_INT_MAX);

export type SaveResult =
  | { ok: true; status: "saved" | "unchanged"; updatedAt: string; next: number | null }
  | { ok: false; error: string };

export async function saveLabel(form: LabelForm, position: number): Promise<SaveResult> {
  const actor = await requireAction("labels:write");
  try {
    const at = Position.parse(position);
    const r = await submitLabel(actor, form);
    return { ok: true, ...r, next: await nextPosition(actor, form.studyId, at) };
  } catch (e) {
    // An item that is not this annotator's: refused as any action they may not take (403).
    if (e instanceof PermissionDenied) forbidden();
    return { ok: false, error: errorText(e) };
  }
}
