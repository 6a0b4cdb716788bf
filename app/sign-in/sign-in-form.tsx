"use client";
import { useActionState } from "react";
import { signIn, type SignInState } from "./actions";

export function SignInForm({ next }: { next: string | null }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, { error: null, email: "" });
  return (
    <form action={action} className="sign-in">
      <label>Email <input name="email" type="email" autoComplete="username" required defaultValue={state.email} autoFocus /></label>
      <label>Password <input name="password" type="password" autoComplete="current-password" required /></label>
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {state.error ? <p role="alert" className="error">{state.error}</p> : null}
      <button type="submit" disabled={pending}>{pending ? "Signing in…" : "Sign in"}</button>
    </form>
  );
}
