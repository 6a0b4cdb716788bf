"use server";
import { redirect } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { formErrors, NO_ERRORS, type FormErrors } from "@/lib/errors";
import { attempt, type SavedState } from "@/lib/form-action";
import { freezeReport, revokeLink, shareReport } from "@/lib/data/frozen-reports";

export async function freeze(_: FormErrors, data: FormData): Promise<FormErrors> {
  const actor = await requireAction("reports:write");
  let id: number;
  try {
    id = await freezeReport(actor, data.get("name"));
  } catch (e) {
    return formErrors(e);
  }
  redirect(`/reports/${id}`);
}

/** A new link: the token comes back once, to be shown and copied; it is never stored. */
export type ShareState = FormErrors & { token: string | null };

export async function share(_: ShareState, data: FormData): Promise<ShareState> {
  const actor = await requireAction("reports:write");
  const days = String(data.get("days") ?? "").trim();
  try {
    const token = await shareReport(actor, Number(data.get("report")), days ? Number(days) : null);
    return { ...NO_ERRORS, token };
  } catch (e) {
    return { ...formErrors(e), token: null };
  }
}

export async function revoke(_: SavedState, data: FormData): Promise<SavedState> {
  const actor = await requireAction("reports:write");
  return attempt("/reports", () => revokeLink(actor, Number(data.get("link"))));
}
