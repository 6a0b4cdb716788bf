// better-auth's own endpoints (session, sign-in, sign-out) for clients that use them directly;
// the app's pages sign in and out through server actions (app/sign-in/actions.ts).
import { toNextJsHandler } from "better-auth/next-js";
import { auth } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return toNextJsHandler(auth()).GET(request);
}

export async function POST(request: Request) {
  return toNextJsHandler(auth()).POST(request);
}
