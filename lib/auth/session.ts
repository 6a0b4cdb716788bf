import "server-only";
// The request's user and the guards pages, routes and actions call first (redirect or 401; 403).

import { headers } from "next/headers";
import { forbidden, notFound, redirect, unauthorized } from "next/navigation";
import { cache } from "react";
import type { UserRole } from "@/generated/prisma/enums";
import { IndexParam } from "@/lib/domain/params";
import { auth } from "./auth";
import { type Action, type Actor, can } from "./permissions";

export async function actorFrom(h: Headers): Promise<Actor | null> {
  const s = await auth().api.getSession({ headers: h });
  if (!s) return null;
  const user = s.user as typeof s.user & { role?: string | null; handle: string };
  return { id: user.id, role: (user.role ?? "ANNOTATOR") as UserRole, handle: user.handle };
}

export const currentUser = cache(async (): Promise<Actor | null> => actorFrom(await headers()));

/** For a page: the user if they may do `action`; otherwise sign in (then back to `path`) or 403. */
export async function requirePage(action: Action, path: string): Promise<Actor> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  if (!can(user.role, action)) forbidden();
  return user;
}

/** A queue or review item's page: the user if allowed, and the two path parts as whole numbers (else 404). */
export async function requireItemPage(
  action: Action,
  prefix: string,
  parts: readonly [string, string],
): Promise<{ user: Actor; ids: [number, number] }> {
  const user = await requirePage(action, `${prefix}/${parts.map(encodeURIComponent).join("/")}`);
  const a = IndexParam.safeParse(parts[0]);
  const b = IndexParam.safeParse(parts[1]);
  if (!a.success || !b.success) notFound();
  return { user, ids: [a.data, b.data] };
}

export async function requireAction(action: Action): Promise<Actor> {
  const user = await currentUser();
  if (!user) unauthorized();
  if (!can(user.role, action)) forbidden();
  return user;
}
