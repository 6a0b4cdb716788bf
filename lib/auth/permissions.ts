// Who may do what: one table read by every page, route, action and the data layer's writes (assertCan). Pure.
import type { UserRole } from "@/generated/prisma/enums";
import { AppError } from "@/lib/errors";

export const ROLES = ["RESEARCHER", "ANNOTATOR", "REVIEWER"] as const satisfies readonly UserRole[];

export const PERMISSIONS = {
  "overview:read": ["RESEARCHER", "REVIEWER"],
  /** The trajectory list, timelines, full texts, compare. Judges' verdicts are on them. */
  "trajectories:read": ["RESEARCHER", "REVIEWER"],
  "results:read": ["RESEARCHER", "REVIEWER"],
  "imports:write": ["RESEARCHER"],
  "studies:read": ["RESEARCHER", "REVIEWER"],
  "studies:write": ["RESEARCHER"],
  /** Suspect-step rules: each with what it finds, its figures and history. */
  "rules:read": ["RESEARCHER", "REVIEWER"],
  "rules:write": ["RESEARCHER"],
  /** The Judges page read: judges, panels, runs, the prompt, the categories. */
  "judges:read": ["RESEARCHER", "REVIEWER"],
  /** Judges the app asks: their endpoints, the judge prompt, runs, panels, the categories. */
  "judges:write": ["RESEARCHER"],
  "people:write": ["RESEARCHER"],
  "labels:write": ["RESEARCHER", "ANNOTATOR"],
  /** Freeze the results and agreement as a report, and share it by read-only links. */
  "reports:write": ["RESEARCHER"],
  /** Adjudicate: the review queue of a study's disagreements, and gold labels. */
  "gold:write": ["RESEARCHER", "REVIEWER"],
  /** One's own API tokens: make, see and revoke them (a researcher sees and revokes anyone's: people:write). */
  "tokens:own": ["RESEARCHER", "ANNOTATOR", "REVIEWER"],
} as const satisfies Record<string, readonly UserRole[]>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export type Actor = { id: string; role: UserRole; handle: string };

export function can(role: UserRole | null | undefined, action: Action): boolean {
  return !!role && (PERMISSIONS[action] as readonly UserRole[]).includes(role);
}

/** Thrown by the data layer when an actor lacks a permission; pages and routes answer 403. */
export class PermissionDenied extends AppError {
  constructor(
    readonly action: Action,
    readonly role: UserRole | null,
  ) {
    super(
      role ? "FORBIDDEN" : "UNAUTHENTICATED",
      `${role ? role.toLowerCase() : "a signed-out visitor"} may not ${action.replace(":", " ")}`,
    );
  }
}

export function assertCan(actor: Actor | null, action: Action): asserts actor is Actor {
  if (!actor || !can(actor.role, action)) throw new PermissionDenied(action, actor?.role ?? null);
}

/** Where a role lands after signing in: the first page it may read. */
export function homeFor(role: UserRole): string {
  return can(role, "overview:read") ? "/" : "/queue";
}

/** A post-sign-in destination from the query string, only if it is a path on this site. */
export function safeNext(next: string | null | undefined): string | null {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return null;
  return next;
}
