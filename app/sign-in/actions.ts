"use server";
import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { UserRole } from "@/generated/prisma/enums";
import { auth } from "@/lib/auth/auth";
import { homeFor, safeNext } from "@/lib/auth/permissions";

export type SignInState = { error: string | null; email: string };

const Form = z.object({ email: z.string().trim().min(1, "give your email"), password: z.string().min(1, "give your password"), next: z.string().optional() });

export async function signIn(_: SignInState, data: FormData): Promise<SignInState> {
  const form = Form.safeParse(Object.fromEntries(data));
  const email = String(data.get("email") ?? "");
  if (!form.success) return { error: form.error.issues.map((i) => i.message).join("; "), email };
  let role: UserRole;
  try {
    // A new session, with a new token, on every sign-in: a token planted before it is worthless.
    const res = await auth().api.signInEmail({ body: { email: form.data.email, password: form.data.password }, headers: await headers() });
    role = ((res.user as { role?: string }).role ?? "ANNOTATOR") as UserRole;
  } catch (e) {
    if (e instanceof APIError) return { error: "That email and password do not match an account.", email };
    throw e;
  }
  redirect(safeNext(form.data.next) ?? homeFor(role));
}

export async function signOut(): Promise<void> {
  await auth().api.signOut({ headers: await headers() });
  redirect("/sign-in");
}
