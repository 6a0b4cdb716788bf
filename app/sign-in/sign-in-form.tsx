"use client";
// Signs in through better-auth's endpoint, so its origin check and rate limit apply, then opens `next`.
import { type FormEvent, useState } from "react";
import type { UserRole } from "@/generated/prisma/enums";
import { homeFor } from "@/lib/auth/permissions";

export function SignInForm({ next }: { next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: String(data.get("email") ?? "").trim(),
          password: String(data.get("password") ?? ""),
        }),
      });
      if (res.ok) {
        const { user } = (await res.json()) as { user: { role?: UserRole } };
        // A full load, so every server component reads the new session.
        window.location.assign(next ?? homeFor(user.role ?? "ANNOTATOR"));
        return;
      }
      const wait = res.headers.get("x-retry-after");
      setError(
        res.status === 429
          ? `Too many attempts: wait ${wait ?? "a minute"} seconds and try again.`
          : "That email and password do not match an account.",
      );
    } catch {
      setError("The server did not answer: try again.");
    }
    setPending(false);
  };
  return (
    <form onSubmit={submit} className="sign-in">
      <label>
        Email {/* biome-ignore lint/a11y/noAutofocus: the page's one purpose; nothing above the field to miss */}
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
