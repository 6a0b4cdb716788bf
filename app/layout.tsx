import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Shortcut Audit", template: "%s · Shortcut Audit" },
  description: "Audit coding-agent trajectories for shortcutting.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">Shortcut Audit</Link>
          <nav aria-label="Main">
            <Link href="/">Overview</Link>
            <Link href="/trajectories">Trajectories</Link>
            <Link href="/results">Results</Link>
            <Link href="/agreement">Agreement</Link>
            <Link href="/import">Import</Link>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
