"use server";
import { revalidatePath } from "next/cache";
import { requireAction } from "@/lib/auth/session";
import { refusal } from "@/lib/format";
import { PersonError, createPerson, setPassword, setRole } from "@/lib/data/people";
import type { UserRole } from "@/generated/prisma/enums";

export type PeopleState = { error: string | null; saved: string | null };

const message = (e: unknown) => refusal(e, [PersonError]);

export async function addPerson(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  try {
    const p = await createPerson(actor, {
      handle: String(data.get("handle") ?? ""),
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      role: String(data.get("role") ?? "") as UserRole,
      password: String(data.get("password") ?? ""),
    });
    revalidatePath("/people");
    return { error: null, saved: `${p.handle} can sign in as ${p.email} (${p.role.toLowerCase()})` };
  } catch (e) {
    return { error: message(e), saved: null };
  }
}

export async function changeRole(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  try {
    await setRole(actor, String(data.get("id") ?? ""), String(data.get("role") ?? "") as UserRole);
    revalidatePath("/people");
    return { error: null, saved: "role changed" };
  } catch (e) {
    return { error: message(e), saved: null };
  }
}

export async function changePassword(_: PeopleState, data: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  try {
    await setPassword(actor, String(data.get("id") ?? ""), String(data.get("password") ?? ""));
    revalidatePath("/people");
    return { error: null, saved: "password set; their sessions were ended" };
  } catch (e) {
    return { error: message(e), saved: null };
  }
}
