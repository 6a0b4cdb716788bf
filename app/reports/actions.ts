"use server";
import { redirect } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { revokeLink, shareReport } from "@/lib/data/report-links";
import { type FormErrors, formErrors, NO_ERRORS } from "@/lib/errors";
import { checkedForm, checkedId } from "@/lib/web/action-input";
import { attempt, type SavedState } from "@/lib/web/form-action";
import { freezeReport } from "@/lib/work/reports/frozen";

export async function freeze(_: FormErrors, form: FormData): Promise<FormErrors> {
  const actor = await requireAction("reports:write");
  let id: number;
  try {
    id = await freezeReport(actor, checkedForm(form).get("name"));
  } catch (e) {
    return formErrors(e);
  }
  redirect(`/reports/${id}`);
}

/** A new link: the token comes back once, to be shown and copied; it is never stored. */
export type ShareState = FormErrors & { token: string | null };

export async function share(_: ShareState, form: FormData): Promise<ShareState> {
  const actor = await requireAction("reports:write");
  try {
    const data = checkedForm(form);
    const days = String(data.get("days") ?? "").trim();
    const token = await shareReport(actor, checkedId(data.get("report"), "report"), days ? Number(days) : null);
    return { ...NO_ERRORS, token };
  } catch (e) {
    return { ...formErrors(e), token: null };
  }
}

export async function revoke(_: SavedState, form: FormData): Promise<SavedState> {
  const actor = await requireAction("reports:write");
  return attempt("/reports", () => revokeLink(actor, checkedId(checkedForm(form).get("link"), "link")));
}
