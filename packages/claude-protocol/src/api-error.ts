// StopFailure's `error` (claude-code-hook-events.md): a turn's error code (`HTTP_429`, `OVERLOADED`, …)
// as the word Claude Code uses for the API error, mapped by HTTP status. The Claude hooks bridge and the
// mod host's `classic.StopFailure` (`@tack/mods`) both read it here, so both say the same.
export function claudeApiError(code: string | undefined): string {
  if (code === 'OVERLOADED') return 'overloaded'
  if (code === 'UNKNOWN_MODEL') return 'model_not_found'
  // "prompt is too long" is the provider's 400 (Anthropic: 413); @tack/llm names it for compaction.
  if (code === 'CONTEXT_TOO_LONG') return 'invalid_request'
  const status = Number(/^HTTP_(\d{3})$/.exec(code ?? '')?.[1])
  if (status === 401 || status === 403) return 'authentication_failed'
  if (status === 429) return 'rate_limit'
  if (status === 529) return 'overloaded'
  if (status === 404) return 'model_not_found'
  if (status === 400 || status === 413 || status === 422) return 'invalid_request'
  if (status >= 500 && status < 600) return 'server_error'
  return 'unknown'
}
