import { getHealth } from "@/lib/data/health";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for process managers and the e2e server's readiness check. */
export async function GET() {
  const health = await getHealth();
  return Response.json(health, { status: health.ok ? 200 : 503 });
}
