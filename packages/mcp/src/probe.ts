// A health check of one server, as `claude mcp list` does and `tack mcp list` shows (spec 55-mcp.md M5):
// start it with the connection a session uses (connection.ts), list what it offers, and close it (which
// ends a stdio server's process). The start is bounded; nothing is printed, the outcome says it all.
import { setTimeout as sleep } from 'node:timers/promises'
import { RestartBackoff } from './backoff.ts'
import { McpConnection } from './connection.ts'
import type { McpServerDefinition } from './definition.ts'
import { errorText } from './error-text.ts'

export type ProbeResult =
  | { readonly state: 'connected'; readonly tools: number }
  /** `error`: what the start failed with; `stderr`: the server's last stderr line, when it wrote one. */
  | { readonly state: 'failed'; readonly error: string; readonly stderr?: string }

export interface ProbeOptions {
  /** How long the server may take to start and list its tools (`startupTimeoutMs`). */
  readonly timeoutMs: number
  readonly stderrMaxBytes: number
  /** Bytes of one message the server may send (`plugins.mcp.maxMessageBytes`). */
  readonly maxMessageBytes: number
  /** Variables kept out of a stdio server's environment (`ctx.secrets` in a session). */
  readonly secretVariables?: readonly string[]
}

export async function probeServer(
  name: string,
  def: McpServerDefinition,
  options: ProbeOptions,
): Promise<ProbeResult> {
  let tools = 0
  const connection = new McpConnection({
    name,
    def,
    connectTimeoutMs: options.timeoutMs,
    stderrMaxBytes: options.stderrMaxBytes,
    maxMessageBytes: options.maxMessageBytes,
    backoff: new RestartBackoff(0, 0),
    secretVariables: () => options.secretVariables ?? [],
    onTools: (list) => {
      tools = list.length
    },
    onInstructions: () => undefined,
    // The result carries the failure; the connection's own lines would say it twice.
    warn: () => undefined,
  })
  const timer = new AbortController()
  try {
    const outcome = await Promise.race([
      connection.start().then(
        () => 'connected' as const,
        (error: unknown) => ({ error }),
      ),
      sleep(options.timeoutMs, undefined, { signal: timer.signal }).then(
        () => ({ error: new Error(`no answer within ${options.timeoutMs} ms (startupTimeoutMs)`) }),
        () => ({ error: new Error('aborted') }),
      ),
    ])
    if (outcome === 'connected') return { state: 'connected', tools }
    const stderr = connection.lastStderrLine()
    return { state: 'failed', error: errorText(outcome.error), ...(stderr ? { stderr } : {}) }
  } finally {
    timer.abort()
    await connection.close()
  }
}
