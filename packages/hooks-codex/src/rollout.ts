// The session as a Codex-rollout-shaped JSONL file, the file `transcript_path` names (issue 11.6).
// Codex gives hooks the path of its own rollout (`~/.codex/sessions/…/rollout-….jsonl`); tack writes
// its own export of the log in that shape under `transcriptDir`, never into Codex's home. One compact
// JSON line per record, `{timestamp, type, payload}`:
//
//   (file start)                 → session_meta {id, timestamp, cwd, originator: "tack", cli_version[, parent_id]}
//   turn/start                   → turn_context {turn_id, cwd} + event_msg task_started {turn_id}
//   user/message, user steering  → response_item message (role user, input_text) + event_msg user_message
//   context/message, plugin steering → response_item message (role developer, input_text)
//   assistant/message            → per block: reasoning (summary_text), message (role assistant,
//                                  output_text) + event_msg agent_message, function_call {name, arguments, call_id}
//   tool/result                  → response_item function_call_output {call_id, output}
//   turn/end                     → event_msg task_complete {turn_id, last_agent_message}
//   everything else              → nothing
//
// `turn_id` is the payloads' (`<session id>:<turn>`), so a hook can find its own turn; tool calls carry the
// Codex name the payloads use (`Bash`, `apply_patch`, else tack's) and the model's own argument text.
import { join } from 'node:path'
import { safeFileName, type TranscriptProjector } from '@tack/hook-protocol'
import { blockText } from '@tack/session'
import type { ContentBlock, SessionEvent, SessionHeader } from '@tack/session'
import { HostMappingReader, type ToolRegistry } from '@tack/tools'

/** `cli_version` of the `session_meta` line: this bridge's version (Codex writes its own). */
export const ROLLOUT_VERSION = '0.1.0'

/** `<dir>/<session id>.jsonl`: one file per agent session (a subagent's too, as Codex keeps one per thread). */
export function rolloutPath(dir: string, sessionId: string): string {
  return join(dir, `${safeFileName(sessionId)}.jsonl`)
}

const text = (blocks: readonly ContentBlock[]) => blocks.map(blockText).join('\n')

export class CodexRolloutProjector implements TranscriptProjector {
  readonly #header: SessionHeader
  readonly #tools: HostMappingReader
  #lastAgentMessage: string | null = null

  constructor(header: SessionHeader, tools?: Pick<ToolRegistry, 'get'>) {
    this.#header = header
    this.#tools = new HostMappingReader('codex', tools)
  }

  start(): string[] {
    const h = this.#header
    return [
      line(h.createdAt, 'session_meta', {
        id: h.id,
        timestamp: h.createdAt,
        cwd: h.cwd,
        originator: 'tack',
        cli_version: ROLLOUT_VERSION,
        ...(h.parentSession ? { parent_id: h.parentSession } : {}),
      }),
    ]
  }

  push(event: SessionEvent): string[] {
    const at = event.time
    switch (event.type) {
      case 'turn/start': {
        const turnId = `${this.#header.id}:${(event as SessionEvent<'turn/start'>).data.turn}`
        this.#lastAgentMessage = null
        return [
          line(at, 'turn_context', { turn_id: turnId, cwd: this.#header.cwd }),
          line(at, 'event_msg', { type: 'task_started', turn_id: turnId }),
        ]
      }
      case 'turn/end': {
        const turnId = `${this.#header.id}:${(event as SessionEvent<'turn/end'>).data.turn}`
        return [
          line(at, 'event_msg', {
            type: 'task_complete',
            turn_id: turnId,
            last_agent_message: this.#lastAgentMessage,
          }),
        ]
      }
      case 'user/message':
        return this.#user(at, (event as SessionEvent<'user/message'>).data.content)
      case 'steering/message': {
        const { content, source } = (event as SessionEvent<'steering/message'>).data
        return source.kind === 'user' ? this.#user(at, content) : [this.#developer(at, content)]
      }
      case 'context/message': {
        return [this.#developer(at, (event as SessionEvent<'context/message'>).data.content)]
      }
      case 'assistant/message':
        return this.#assistant(at, (event as SessionEvent<'assistant/message'>).data.content)
      case 'tool/result': {
        const result = (event as SessionEvent<'tool/result'>).data
        return [
          line(at, 'response_item', {
            type: 'function_call_output',
            call_id: result.callId,
            output: text(result.content),
          }),
        ]
      }
      default:
        return []
    }
  }

  #user(at: string, content: readonly ContentBlock[]): string[] {
    const body = text(content)
    return [
      line(at, 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: body }],
      }),
      line(at, 'event_msg', { type: 'user_message', message: body }),
    ]
  }

  /** Context as Codex records hook context: a developer message (the model got tack's envelope). */
  #developer(at: string, content: readonly ContentBlock[]): string {
    return line(at, 'response_item', {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: text(content) }],
    })
  }

  #assistant(at: string, blocks: SessionEvent<'assistant/message'>['data']['content']): string[] {
    const out: string[] = []
    for (const block of blocks) {
      switch (block.type) {
        case 'reasoning':
          out.push(
            line(at, 'response_item', {
              type: 'reasoning',
              summary: [{ type: 'summary_text', text: block.text }],
            }),
          )
          break
        case 'text':
          this.#lastAgentMessage = block.text
          out.push(
            line(at, 'response_item', {
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: block.text }],
            }),
            line(at, 'event_msg', { type: 'agent_message', message: block.text }),
          )
          break
        case 'tool-call':
          out.push(
            line(at, 'response_item', {
              type: 'function_call',
              name: this.#tools.name(block.name),
              arguments: block.arguments,
              call_id: block.callId,
            }),
          )
          break
        default:
          block satisfies never
      }
    }
    return out
  }
}

function line(timestamp: string, type: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp, type, payload })
}
