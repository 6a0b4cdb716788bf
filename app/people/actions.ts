"use server";
import type { UserRole } from "@/generated/prisma/enums";
import { requireAction } from "@/lib/auth/session";
import { createPerson, setPassword, setRole } from "@/lib/data/people";
import { checkedForm } from "@/lib/web/action-input";
import { attempt, type SavedState } from "@/lib/web/form-action";

export type PeopleState = SavedState;

const text = (data: FormData, name: string) => String(data.get(name) ?? "");

const change = (fn: () => Promise<string>) => attempt("/people", fn);

export async function addPerson(_: PeopleState, form: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return change(async () => {
    const data = checkedForm(form);
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

export async function changeRole(_: PeopleState, form: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return change(async () => {
    const data = checkedForm(form);
    await setRole(actor, text(data, "id"), text(data, "role") as UserRole);
    return "role changed";
  });
}

export async function changePassword(_: PeopleState, form: FormData): Promise<PeopleState> {
  const actor = await requireAction("people:write");
  return change(async () => {
    const data = checkedForm(form);
    await setPassword(actor, text(data, "id"), text(data, "password"));
    return "password set; their sessions were ended";
  });
}
