import "server-only";
// People: accounts that sign in, and annotators known from imported labels.
import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import type { UserRole } from "@/generated/prisma/enums";
import { MIN_PASSWORD } from "@/lib/auth/auth";
import { type Actor, assertCan, ROLES } from "@/lib/auth/permissions";
import { db, lockForTransaction } from "@/lib/db";
import { AppError, type ErrorCode } from "@/lib/errors";

export { DEMO_ACCOUNTS } from "./demo-accounts";

export const PersonSchema = z.object({
  handle: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,64}$/, "a handle is 1–64 letters, digits, dots, dashes or underscores"),
  name: z.string().trim().max(200).optional(),
  email: z.email("give a valid email").transform((e) => e.toLowerCase()),
  role: z.enum(ROLES),
  password: z.string().min(MIN_PASSWORD, `a password has at least ${MIN_PASSWORD} characters`).max(200),
});
export type PersonInput = z.input<typeof PersonSchema>;

export type Person = {
  id: string;
  handle: string;
  name: string;
  email: string | null;
  role: UserRole;
  canSignIn: boolean;
  labels: number;
  assigned: number;
};

const PERSON = {
  id: true,
  handle: true,
  name: true,
  email: true,
  role: true,
  accounts: { select: { providerId: true } },
  _count: { select: { labels: true, assignments: true } },
} as const;

function personOf(u: Prisma.UserGetPayload<{ select: typeof PERSON }>): Person {
  return {
    id: u.id,
    handle: u.handle,
    name: u.name,
    email: u.email,
    role: u.role,
    canSignIn: u.accounts.some((a) => a.providerId === "credential"),
    labels: u._count.labels,
    assigned: u._count.assignments,
  };
}

/** The advisory lock class that serializes role changes (key 0) and new accounts (key 1). */
const PEOPLE_LOCK = 7413;

export async function listPeople(): Promise<Person[]> {
  return (await db().user.findMany({ orderBy: { handle: "asc" }, select: PERSON })).map(personOf);
}

/** Creates an account, or gives a login to a name known from labels; an existing login is never replaced. */
export async function createPerson(actor: Actor | "system", input: PersonInput): Promise<Person> {
  if (actor !== "system") assertCan(actor, "people:write");
  const p = PersonSchema.parse(input);
  const hash = await hashPassword(p.password);
  const id = await db().$transaction(async (tx) => {
    // One account at a time: Racer0 and racer0 at once would each find the handle free.
    await lockForTransaction(tx, PEOPLE_LOCK, 1);
    const byEmail = await tx.user.findUnique({ where: { email: p.email }, select: { handle: true } });
    if (byEmail) throw new PersonError(`the email ${p.email} belongs to ${byEmail.handle} already`, "email");
    // Handles are unique regardless of case (Rosa is rosa): the one named so already, in any case.
    const byHandle = await tx.user.findFirst({
      where: { handle: { equals: p.handle, mode: "insensitive" } },
      select: { id: true, handle: true, email: true, accounts: { select: { providerId: true } } },
    });
    if (byHandle && (byHandle.email || byHandle.accounts.length)) {
      throw new PersonError(
        `${byHandle.handle} has an account already: change their role or password in their row`,
        "handle",
      );
    }
    const user = byHandle
      ? await tx.user.update({
          where: { id: byHandle.id },
          data: { email: p.email, role: p.role, ...(p.name ? { name: p.name } : {}) },
          select: { id: true },
        })
      : await tx.user.create({
          data: { handle: p.handle, name: p.name || p.handle, email: p.email, role: p.role },
          select: { id: true },
        });
    await tx.account.create({
      data: { providerId: "credential", accountId: user.id, userId: user.id, password: hash },
    });
    return user.id;
  });
  return personOf(await db().user.findUniqueOrThrow({ where: { id }, select: PERSON }));
}

const PasswordSchema = z.object({ password: PersonSchema.shape.password });

/** Sets a person's password and ends their sessions: whoever knew the old one is signed out. */
export async function setPassword(actor: Actor | "system", userId: string, password: string): Promise<void> {
  if (actor !== "system") assertCan(actor, "people:write");
  const hash = await hashPassword(PasswordSchema.parse({ password }).password);
  await db().$transaction(async (tx) => {
    const updated = await tx.account.updateMany({
      where: { userId, providerId: "credential" },
      data: { password: hash },
    });
    if (!updated.count)
      throw new PersonError("this person has no login: add one with the form above", null, "NOT_FOUND");
    await tx.session.deleteMany({ where: { userId } });
  });
}

/** Changes a role. The last researcher cannot stop being one: someone must be able to manage. */
export async function setRole(actor: Actor, userId: string, input: UserRole): Promise<void> {
  assertCan(actor, "people:write");
  const { role } = z.object({ role: z.enum(ROLES) }).parse({ role: input });
  await db().$transaction(async (tx) => {
    // One role change at a time: two researchers demoting each other would leave none.
    await lockForTransaction(tx, PEOPLE_LOCK, 0);
    const target = await tx.user.findUnique({ where: { id: userId }, select: { role: true } });
    if (!target) throw new PersonError("no such person", null, "NOT_FOUND");
    if (target.role === "RESEARCHER" && role !== "RESEARCHER") {
      const researchers = await tx.user.count({
        where: { role: "RESEARCHER", accounts: { some: { providerId: "credential" } } },
      });
      if (researchers <= 1)
        throw new PersonError("this is the last researcher who can sign in; make another one first", "role");
    }
    await tx.user.update({ where: { id: userId }, data: { role } });
    // A changed role takes effect now: the person signs in again under it.
    await tx.session.deleteMany({ where: { userId } });
  });
}

/** A refused change to a person: a taken handle or email, the last researcher, no login. */
export class PersonError extends AppError {
  constructor(message: string, field: string | null = null, code: ErrorCode = "CONFLICT") {
    super(code, message, field);
  }
}
