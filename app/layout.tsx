import type { Metadata } from "next";
import Link from "next/link";
import { type Action, can, homeFor } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/session";
import { signOut } from "./sign-in/actions";
import "./globals.css";
import { shownText } from "@/lib/domain/text";

export const metadata: Metadata = {
  title: { default: "Shortcut Audit", template: "%s · Shortcut Audit" },
  description: "Audit coding-agent trajectories for shortcutting.",
  icons: { icon: "/favicon.svg" },
};

/** The main menu: each link shows only to roles that may open it (the pages check again). */
const LINKS: Array<{ href: string; label: string; action: Action }> = [
  { href: "/", label: "Overview", action: "overview:read" },
  { href: "/trajectories", label: "Trajectories", action: "trajectories:read" },
  { href: "/results", label: "Results", action: "results:read" },
  { href: "/agreement", label: "Agreement", action: "results:read" },
  { href: "/reports", label: "Reports", action: "results:read" },
  { href: "/studies", label: "Studies", action: "studies:read" },
  { href: "/queue", label: "My queue", action: "labels:write" },
  { href: "/review", label: "Review", action: "gold:write" },
  { href: "/import", label: "Import", action: "imports:write" },
  { href: "/judges", label: "Judges", action: "judges:read" },
  { href: "/rules", label: "Rules", action: "rules:read" },
  { href: "/people", label: "People", action: "people:write" },
];

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href={user ? homeFor(user.role) : "/sign-in"} className="brand">
            Shortcut Audit
          </Link>
          {user ? (
            <>
              <nav aria-label="Main">
                {LINKS.filter((l) => can(user.role, l.action)).map((l) => (
                  <Link key={l.href} href={l.href}>
                    {l.label}
                  </Link>
                ))}
              </nav>
              <form action={signOut} className="account">
                <span>
                  {shownText(user.handle)} · {user.role.toLowerCase()}
                </span>{" "}
                <Link href="/tokens">API tokens</Link> <button type="submit">Sign out</button>
              </form>
            </>
          ) : null}
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
