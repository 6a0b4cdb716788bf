// The HTTP API's route handlers as the tests call them: a Request as Next hands it over, with a
// bearer token, and the path's [id] part.
type Route = (r: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

export function call(
  route: Route,
  path: string,
  {
    token,
    headers = {},
    id = "",
    method = "GET",
    body,
  }: {
    token?: string;
    headers?: Record<string, string>;
    id?: string;
    method?: string;
    body?: string;
  } = {},
): Promise<Response> {
  return route(
    new Request(`http://localhost${path}`, {
      method,
      body,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    }),
    { params: Promise.resolve({ id }) },
  );
}

/** An API refusal's body: {"error": {"code", "message"}}. */
export const errorOf = async (r: Response) => ((await r.json()) as { error: { code: string; message: string } }).error;
