import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { homeFor, safeNext } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNext([(await searchParams).next].flat()[0]);
  const user = await currentUser();
  if (user) redirect(next ?? homeFor(user.role));
  return (
    <>
      <h1>Sign in</h1>
      <p className="lede">
        Accounts are made by a researcher (People page, or <code>npm run cli -- user add</code>). The demo study&apos;s
        accounts are in the README.
      </p>
      <SignInForm next={next} />
    </>
  );
}
