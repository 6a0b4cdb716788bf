import { openApiDocument } from "@/lib/api/v1-spec";

export const dynamic = "force-dynamic";

/** GET /api/v1/openapi.json: the API's OpenAPI 3.1 description, open to all (it holds no data). */
export function GET(request: Request) {
  return Response.json(openApiDocument(new URL(request.url).origin));
}
