// The demo's accounts, one per role, read by the seed and the browser tests.
import type { UserRole } from "@/generated/prisma/enums";

export const DEMO_ACCOUNTS: ReadonlyArray<{
  handle: string;
  name: string;
  email: string;
  role: UserRole;
  password: string;
}> = [
  {
    handle: "rosa",
    name: "Rosa (researcher)",
    email: "researcher@example.org",
    role: "RESEARCHER",
    password: "demo-researcher",
  },
  {
    handle: "carol",
    name: "Carol (annotator)",
    email: "annotator@example.org",
    role: "ANNOTATOR",
    password: "demo-annotator",
  },
  { handle: "rey", name: "Rey (reviewer)", email: "reviewer@example.org", role: "REVIEWER", password: "demo-reviewer" },
];
