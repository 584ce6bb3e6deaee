// The Claude-Code-shaped transcript (40-hooks.md B9, reference §A.9): one compact JSON line per message,
// `{parentUuid, isSidechain, type, message: {role, content}, uuid, timestamp, sessionId, cwd, version}`.
// Compact JSON matters: hooks grep for `"role":"assistant"` with no space after the colon.
//
//   user/message, user-sourced steering    → `user` line, string content (a typed prompt)
//   assistant/message                      → `assistant` line: text, thinking and tool_use blocks (Claude names)
//   tool/result                            → `user` line of one tool_result block, with `toolUseResult` (B8's tool_response)
//   context/message, plugin steering       → `system` line (`isMeta: true`): model-visible, but not a prompt
//   everything else (incl. prompt/blocked) → nothing
//
// Turn counters that count `"type":"user"` lines without `toolUseResult` therefore count prompts only.
// uuids derive from the session id and the log sequence, so a rebuilt transcript is byte-identical.
import { createHash } from 'node:crypto'
import { blockWords } from './block-words.ts'
import type { AssistantBlock, ContentBlock, MessageSource, SessionEvent, SessionHeader } from '@tack/session'
import { type ClaudeToolReader, claudeResponse, UNDECLARED_CLAUDE_TOOLS } from './tool-view.ts'

/** The `version` field of every line: this bridge's version (Claude Code writes its own). */
export const TRANSCRIPT_VERSION = '0.1.0'

export interface TranscriptOptions {
  /** `sessionId` of every line: the top-level session (subagent lines carry their parent's). */
  readonly sessionId: string
  /** The session whose log is projected (its id seeds the uuids); default `sessionId`. */
  readonly logSessionId?: string
  readonly cwd: string
  /** Subagent transcripts: `isSidechain: true` and `agentId` on every line. */
  readonly agentId?: string
  readonly version?: string
  /**
   * The registered tools' declared `host.claude`, read by @tack/tools' `HostMappingReader`: the tool_use
   * blocks carry their Claude names and inputs; without it every tool keeps its tack name and arguments.
   */
  readonly tools?: ClaudeToolReader
}

/** A deterministic RFC 4122-shaped uuid (version 5 bits) from the session id and sequence number. */
export function transcriptUuid(sessionId: string, seq: number): string {
  const h = createHash('sha1').update(`${sessionId}:${seq}`).digest('hex')
  const variant = ((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const text = (blocks: readonly ContentBlock[]) => blocks.map(blockWords).join('\n')

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return {}
  }
}

/** Turns log events into transcript lines, one event at a time, remembering what later lines need. */
export class ClaudeTranscriptProjector {
  readonly #opts: TranscriptOptions
  readonly #tools: ClaudeToolReader
  #parent: string | null = null
  /** Calls seen so far, by id, under their tack name: the result line needs the call's shape. */
  readonly #calls = new Map<string, { name: string; args: unknown; previousTodos: readonly unknown[] }>()
  /** The todo list the log holds so far (its last `todo/write`): what a TodoWrite call replaces. */
  #todos: readonly unknown[] = []

  constructor(opts: TranscriptOptions) {
    this.#opts = opts
    this.#tools = opts.tools ?? UNDECLARED_CLAUDE_TOOLS
  }

  /** The lines (compact JSON, no newline) `event` contributes; most events contribute none. */
  push(event: SessionEvent): string[] {
    const record = this.#record(event)
    if (!record) return []
    const uuid = transcriptUuid(this.#opts.logSessionId ?? this.#opts.sessionId, event.seq)
    const line = {
      parentUuid: this.#parent,
      isSidechain: this.#opts.agentId !== undefined,
      ...(this.#opts.agentId !== undefined ? { agentId: this.#opts.agentId } : {}),
      ...record,
      uuid,
      timestamp: event.time,
      sessionId: this.#opts.sessionId,
      cwd: this.#opts.cwd,
      version: this.#opts.version ?? TRANSCRIPT_VERSION,
    }
    this.#parent = uuid
    return [JSON.stringify(line)]
  }

  #record(event: SessionEvent): Record<string, unknown> | undefined {
    switch (event.type) {
      case 'user/message':
        return this.#user((event as SessionEvent<'user/message'>).data.content)
      case 'steering/message': {
        const { content, source } = (event as SessionEvent<'steering/message'>).data
        return source.kind === 'user' ? this.#user(content) : this.#system(content, source)
      }
      case 'context/message': {
        const { content, source } = (event as SessionEvent<'context/message'>).data
        return this.#system(content, source)
      }
      case 'assistant/message':
        return {
          type: 'assistant',
          message: {
            role: 'assistant',
            content: (event as SessionEvent<'assistant/message'>).data.content.map((b) =>
              this.#assistantBlock(b),
            ),
          },
        }
      case 'todo/write' as SessionEvent['type']: {
        const todos = (event.data as { todos?: unknown }).todos
        this.#todos = Array.isArray(todos) ? todos : []
        return undefined
      }
      case 'tool/result': {
        const result = (event as SessionEvent<'tool/result'>).data
        const call = this.#calls.get(result.callId)
        this.#calls.delete(result.callId)
        return {
          type: 'user',
          message: {
            role: 'user',
            content: [
              {
                tool_use_id: result.callId,
                type: 'tool_result',
                content: text(result.content),
                is_error: result.isError,
              },
            ],
          },
          toolUseResult: claudeResponse(
            this.#tools,
            call?.name ?? result.name,
            call?.args,
            result,
            this.#opts.cwd,
            call ? { previousTodos: call.previousTodos } : {},
          ),
        }
      }
      default:
        return undefined
    }
  }

  #user(content: readonly ContentBlock[]): Record<string, unknown> {
    return { type: 'user', message: { role: 'user', content: text(content) } }
  }

  #system(content: readonly ContentBlock[], source: MessageSource): Record<string, unknown> {
    const name = (source as { name?: unknown }).name
    return {
      type: 'system',
      subtype: 'context',
      content: text(content),
      isMeta: true,
      level: 'info',
      ...(typeof name === 'string' ? { source: name } : {}),
    }
  }

  #assistantBlock(block: AssistantBlock): Record<string, unknown> {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text }
      case 'reasoning':
        return {
          type: 'thinking',
          thinking: block.text,
          ...(block.signature ? { signature: block.signature } : {}),
        }
      case 'tool-call': {
        const args = parseArguments(block.arguments)
        this.#calls.set(block.callId, { name: block.name, args, previousTodos: this.#todos })
        return {
          type: 'tool_use',
          id: block.callId,
          name: this.#tools.name(block.name),
          input: this.#tools.input(block.name, args, this.#opts.cwd),
        }
      }
      default:
        return block satisfies never
    }
  }
}

/** A whole transcript (lines joined, each ending in a newline). */
export function renderTranscript(events: readonly SessionEvent[], opts: TranscriptOptions): string {
  const projector = new ClaudeTranscriptProjector(opts)
  return events.flatMap((e) => projector.push(e).map((l) => `${l}\n`)).join('')
}

/**
 * The transcript of a stored session, for `tack sessions export --format claude-transcript`. A
 * subagent's session (its header names a parent) is written as a sidechain under the parent's id.
 * `tools` gives the Claude names and inputs, as the live bridge has them from the registry.
 */
export function renderClaudeTranscript(
  header: SessionHeader,
  events: readonly SessionEvent[],
  tools?: ClaudeToolReader,
): string {
  return renderTranscript(events, {
    sessionId: header.parentSession ?? header.id,
    logSessionId: header.id,
    cwd: header.cwd,
    ...(header.parentSession ? { agentId: header.id } : {}),
    ...(tools ? { tools } : {}),
  })
}
