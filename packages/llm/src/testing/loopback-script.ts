// The loopback server's script: one entry per request, in order. The entries are the scripted
// model's (`text`, `tool-calls`, `error`, `hang`, with usage and finish reasons) plus HTTP faults
// only a wire can have. What each becomes on the wire is in loopback-openai.ts and
// loopback-anthropic.ts; the format is documented in the package README.
import { readFileSync } from 'node:fs'
import type { ScriptEntry } from '@tack/agent/script'
import type { FinishReason, Usage } from '@tack/session'

/** A success entry may name the signature of its reasoning block (Anthropic thinking). */
export type LoopbackAnswer = Extract<ScriptEntry, { kind: 'text' | 'tool-calls' }> & {
  readonly signature?: string
  /**
   * A model that thinks before it answers: after the stream's first frame, this many ms pass before
   * the rest, with a keep-alive every `keepAliveMs` (none when unset).
   */
  readonly thinkMs?: number
  /** Milliseconds between keep-alives while thinking: an SSE comment (OpenAI), a `ping` event (Anthropic). */
  readonly keepAliveMs?: number
}

export type LoopbackFault =
  /** An HTTP error response: status, body (a string, or JSON), optional Retry-After and headers. */
  | {
      readonly kind: 'http-error'
      readonly status: number
      readonly body?: unknown
      readonly retryAfter?: number | string
      readonly headers?: Readonly<Record<string, string>>
      /** Puts the credential the request carried into the error message, as some providers do. */
      readonly echoAuth?: boolean
    }
  /** 200, `afterChunks` text deltas (default 1), then the connection is destroyed mid-stream. */
  | { readonly kind: 'truncate'; readonly afterChunks?: number; readonly text?: string }
  /** 200 and a complete-looking stream that simply ends without any finish reason. */
  | { readonly kind: 'no-finish'; readonly text?: string }
  /**
   * A server that stops sending and keeps the connection open: after `accept` it never sends headers;
   * after `headers` it sends them and the stream's opening (no content); after `chunks` also `text`
   * as one delta. The connection stays open until the client gives up (or the server closes).
   */
  | { readonly kind: 'stall'; readonly after: 'accept' | 'headers' | 'chunks'; readonly text?: string }

export type LoopbackEntry =
  | LoopbackAnswer
  | Extract<ScriptEntry, { kind: 'error' | 'hang' }>
  | LoopbackFault
  /** In-process only: decide from the logged request. */
  | { readonly kind: 'respond'; readonly respond: (request: LoggedRequest) => LoopbackEntry }

export type WireProtocolName = 'openai' | 'anthropic' | 'responses'

/** One request as received, in arrival order. Credential header values are replaced. */
export interface LoggedRequest {
  readonly seq: number
  readonly method: string
  readonly path: string
  readonly protocol: WireProtocolName | 'unknown'
  readonly headers: Readonly<Record<string, string>>
  /** Whether the request carried the server's `expectApiKey` (undefined when none is expected). */
  readonly authorized?: boolean
  /** The parsed JSON body (undefined when it is not JSON). */
  readonly body: unknown
  /** The body exactly as received (UTF-8). */
  readonly rawBody: string
  readonly bytes: number
  /** The conversation the server's `conversations.keyOf` put the request in, when it named one. */
  readonly conversation?: string
  /** Index of the script entry that answered, when one did (within its conversation's script, if any). */
  readonly entry?: number
}

const KINDS = ['text', 'tool-calls', 'error', 'hang', 'http-error', 'truncate', 'no-finish', 'stall']

/** Reads a script file: a JSON array of entries or `{"entries": [...]}`. */
export function loadLoopbackScript(file: string): LoopbackEntry[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  const entries = Array.isArray(parsed) ? parsed : (parsed as { entries?: unknown } | null)?.entries
  if (!Array.isArray(entries)) throw new Error(`${file}: expected an array of entries or {"entries": [...]}`)
  entries.forEach((entry: { kind?: unknown } | null, i) => {
    if (!entry || !KINDS.includes(entry.kind as string))
      throw new Error(
        `${file}: entry ${i} has kind ${JSON.stringify(entry?.kind)} (allowed: ${KINDS.join(', ')})`,
      )
  })
  return entries as LoopbackEntry[]
}

/** A success entry reduced to what both wire renderers need. */
export interface AnswerPlan {
  readonly reasoning?: string
  readonly signature?: string
  readonly text: string
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: string }[]
  readonly usage?: Usage
  readonly finishReason: FinishReason
}

export function planAnswer(entry: LoopbackAnswer, nextCallId: () => string, seq: number): AnswerPlan {
  const calls =
    entry.kind === 'tool-calls'
      ? entry.calls.map((c) => ({
          id: c.id ?? nextCallId(),
          name: c.name,
          args: c.rawArguments ?? JSON.stringify(c.args ?? {}),
        }))
      : []
  return {
    ...(entry.reasoning ? { reasoning: entry.reasoning, signature: entry.signature ?? `sig-${seq}` } : {}),
    text: entry.text ?? '',
    calls,
    ...(entry.usage ? { usage: entry.usage } : {}),
    finishReason: entry.finishReason ?? (entry.kind === 'tool-calls' ? 'tool-calls' : 'stop'),
  }
}

/** Splits text in two, so clients see more than one delta. */
export function halves(text: string): string[] {
  if (text.length < 2) return text ? [text] : []
  const cut = Math.ceil(text.length / 2)
  return [text.slice(0, cut), text.slice(cut)]
}
