"use server";
import { revalidatePath } from "next/cache";
import { requireAction } from "@/lib/auth/session";
import { formErrors, NO_ERRORS, type FormErrors } from "@/lib/errors";
import { createPerson, setPassword, setRole } from "@/lib/data/people";
import type { UserRole } from "@/generated/prisma/enums";

/** A people form after a submission: what was saved, or the messages by field. */
export type PeopleState = FormErrors & { saved: string | null };

const text = (data: FormData, name: string) => String(data.get(name) ?? "");

/** Runs a change, revalidates the page, and answers with what was saved or what was refused. */
async function attempt(change: () => Promise<string>): Promise<PeopleState> {
  try {
    const saved = await change();
    revalidatePath("/people");
    return { ...NO_ERRORS, saved };
  } catch (e) {
    return { ...formErrors(e), saved: null };
  }
}

export async function addPerson(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return attempt(async () => {
    const p = await createPerson(actor, {
      handle: text(data, "handle"),
      name: text(data, "name"),
      email: text(data, "email"),
      role: text(data, "role") as UserRole,
      password: text(data, "password"),
    });
    return `${p.handle} can sign in as ${p.email} (${p.role.toLowerCase()})`;
  });
}

export async function changeRole(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return attempt(async () => {
    await setRole(actor, text(data, "id"), text(data, "role") as UserRole);
    return "role changed";
  });
}

export async function changePassword(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return attempt(async () => {
    await setPassword(actor, text(data, "id"), text(data, "password"));
    return "password set; their sessions were ended";
  });
}
