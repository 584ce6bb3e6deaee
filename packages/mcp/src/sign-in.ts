// A server that needs a sign-in (spec 55-mcp.md M1): an http or sse server answering HTTP 401. tack has
// no OAuth flow (no browser, no token store: docs/decisions/0240-mcp-early-start.md), so it says so —
// one line to the person at start, an error the model reads on a call, and a note in the server's
// instructions section so the model knows why the server's tools are missing — each naming the server
// and how to give it a token: an `Authorization` header in its definition.
/** Why a server could not be used: it needs a sign-in tack cannot do. */
export class SignInNeededError extends Error {
  override readonly name = 'SignInNeededError'

  readonly server: string

  constructor(server: string) {
    super(
      `it needs a sign-in (HTTP 401), and tack cannot sign in to MCP servers (no OAuth); give it a token in its definition: "headers": {"Authorization": "Bearer <token>"} under plugins.mcp.servers.${server} in tack's config or mcpServers.${server} in .mcp.json (Codex: bearer_token_env_var)`,
    )
    this.server = server
  }
}

/** Whether `error` is the SDK's answer to an HTTP 401 from a server (Streamable HTTP or SSE). */
export function isSignInNeeded(error: unknown): boolean {
  if (error instanceof SignInNeededError) return true
  // The SDK's UnauthorizedError, known by its class's name: importing its module (auth.js) for an
  // `instanceof` would load the HTTP transports' auth code into runs that have no HTTP server.
  if ((error as { constructor?: { name?: unknown } } | null)?.constructor?.name === 'UnauthorizedError')
    return true
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  // StreamableHTTPError and SseError carry the status as `code`; SSE's POST says it in its message.
  return code === 401 || (typeof message === 'string' && /\(HTTP 401\)/.test(message))
}

/** What the model reads in the server's instructions section while the server cannot be signed in to. */
export function signInNote(server: string): string {
  return `This server is not connected: it needs a sign-in (HTTP 401), which tack cannot do, so none of its tools are available. If the user asks for them, tell them to put a token in the server's definition as an Authorization header (under plugins.mcp.servers.${server} in tack's config, or mcpServers.${server} in .mcp.json).`
}
