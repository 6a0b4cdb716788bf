"use server";
// The tokens page's changes: make one's own (shown once), revoke one; each checks permission and origin.
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import { ZodError } from "zod";
import { requireAction } from "@/lib/auth/session";
import { createToken, revokeToken } from "@/lib/data/tokens";
import { IdParam } from "@/lib/domain/params";
import type { TokenScope } from "@/lib/domain/tokens";
import { AppError, formErrors, NO_ERRORS } from "@/lib/errors";
import { checkedForm } from "@/lib/web/action-input";
import type { SavedState } from "@/lib/web/form-action";

export type TokenState = SavedState & { token: string | null };

export async function createTokenAction(_: TokenState, form: FormData): Promise<TokenState> {
  const actor = await requireAction("tokens:own");
  try {
    const data = checkedForm(form);
    const days = String(data.get("expires_days") ?? "").trim();
    const { token, id } = await createToken(actor, actor.handle, {
      name: String(data.get("name") ?? ""),
      scopes: data.getAll("scope").map(String) as TokenScope[],
      expiresDays: days ? Number(days) : null,
    });
    revalidatePath("/tokens");
    return { ...NO_ERRORS, saved: `token ${id} made: copy it now, it is not shown again`, token };
  } catch (e) {
    return { ...formErrors(e), saved: null, token: null };
  }
}

/** Revokes a token the page listed; anything else names nothing (404). */
export async function revokeTokenAction(form: FormData): Promise<void> {
  const actor = await requireAction("tokens:own");
  let id: number;
  try {
    id = IdParam.parse(checkedForm(form).get("id"));
    await revokeToken(actor, id);
  } catch (e) {
    if (e instanceof AppError || e instanceof ZodError) notFound();
    throw e;
  }
  revalidatePath("/tokens");
}
