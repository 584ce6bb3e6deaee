// From tack's session log to ACP `session/update` payloads (50-acp.md requirements 4, 8 and 12). Live
// updates follow the log as it is appended (streamed deltas, a call when it is logged, its result);
// the replay of session/load walks a stored log (whole messages, each call with its final status).
// Both build a call and a result with the same helpers, so a loaded session looks like a live one.
// Code Mode sub-calls (`tool/code-dispatch`) are calls of their own, id = sub-call id (requirement 8).
import type { PlanEntry, SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk'
import { typedCommandOf } from '@tack/commands'
import type { AnySessionEvent, SessionEvent } from '@tack/session'
import { blockText } from '@tack/session'
import { isJsonObject, type Presenter, progressText, type TodoItem, type ToolResultView } from '@tack/tools'
import { resultContent } from './result-content.ts'
import { callContent, parseArguments, showsSnippet, toolLocations } from './tool-kinds.ts'

export interface UpdateEnv {
  /** The session's workspace: relative tool paths are resolved against it. */
  readonly cwd: string
  /** How calls look: the session's tool registry (`ctx.tools`), each tool's declared presentation. */
  readonly look: Presenter
}

/** A logged tool result, as `tool/result` holds it. */
export interface LoggedResult extends ToolResultView {
  readonly name: string
}

interface CallInfo {
  readonly name: string
  readonly args: Record<string, unknown>
}

export function toolCallUpdate(env: UpdateEnv, callId: string, call: CallInfo): SessionUpdate {
  const shown = env.look.presentCall(call.name, call.args)
  return {
    sessionUpdate: 'tool_call',
    toolCallId: callId,
    title: shown.title,
    kind: shown.kind,
    status: 'pending',
    locations: toolLocations(shown, env.cwd),
    rawInput: call.args,
    content: callContent(shown, env.cwd),
  }
}

export function toolResultUpdate(
  env: UpdateEnv,
  callId: string,
  result: LoggedResult,
  args: Record<string, unknown>,
): SessionUpdate {
  const status: ToolCallStatus = result.isError ? 'failed' : 'completed'
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: callId,
    status,
    content: resultContent(env.look.presentResult(result.name, args, result), env.cwd),
  }
}

export function planUpdate(todos: readonly TodoItem[]): SessionUpdate {
  const entries: PlanEntry[] = todos.map((todo) => ({
    content: todo.content,
    priority: todo.priority ?? 'medium',
    status: todo.status,
  }))
  return { sessionUpdate: 'plan', entries }
}

const chunk = (
  kind: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk',
  text: string,
): SessionUpdate => ({ sessionUpdate: kind, content: { type: 'text', text } })

type CodeDispatch = Extract<AnySessionEvent, { type: 'tool/code-dispatch' }>['data']

/**
 * A settled Code Mode sub-call. The log keeps only a summary of its result, so a call whose card shows
 * a snippet diff keeps it (no applied hunks to replace it with); anything else shows the summary.
 */
export function subCallResultUpdate(env: UpdateEnv, dispatch: CodeDispatch): SessionUpdate {
  const call = dispatchCall(dispatch)
  const keepSnippet = !dispatch.isError && showsSnippet(env.look.presentCall(call.name, call.args))
  const text = dispatch.resultSummary
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: dispatch.subCallId,
    status: dispatch.isError ? 'failed' : 'completed',
    ...(keepSnippet || text === ''
      ? {}
      : { content: [{ type: 'content', content: { type: 'text', text } }] }),
  }
}

const dispatchCall = (dispatch: CodeDispatch): CallInfo => ({
  name: dispatch.name,
  args: isJsonObject(dispatch.arguments) ? dispatch.arguments : {},
})

/** Turns appended events into updates, remembering each call's arguments for its result. */
export class LiveUpdates {
  readonly #env: UpdateEnv
  readonly #calls = new Map<string, CallInfo>()
  /** Code Mode sub-calls announced (asked about or started) and not settled yet. */
  readonly #subCalls = new Set<string>()

  constructor(env: UpdateEnv) {
    this.#env = env
  }

  translate(event: SessionEvent): SessionUpdate[] {
    const e = event as AnySessionEvent
    switch (e.type) {
      case 'assistant/chunk': {
        const c = e.data.chunk
        if (c.type === 'text-delta' && c.text !== '') return [chunk('agent_message_chunk', c.text)]
        if (c.type === 'reasoning-delta' && c.text !== '') return [chunk('agent_thought_chunk', c.text)]
        return []
      }
      case 'tool/call': {
        const call = { name: e.data.name, args: parseArguments(e.data.arguments) }
        this.#calls.set(e.data.callId, call)
        return [toolCallUpdate(this.#env, e.data.callId, call)]
      }
      case 'tool/result': {
        const args = this.#calls.get(e.data.callId)?.args ?? {}
        this.#calls.delete(e.data.callId)
        return [toolResultUpdate(this.#env, e.data.callId, e.data, args)]
      }
      case 'tool/progress': {
        // How far a running call is, after what its card showed (ACP's content replaces the card's).
        const call = this.#calls.get(e.data.callId)
        if (!call) return []
        const text = progressText(e.data)
        const shown = callContent(this.#env.look.presentCall(call.name, call.args), this.#env.cwd)
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: e.data.callId,
            status: 'in_progress',
            content: [...(shown ?? []), { type: 'content', content: { type: 'text', text } }],
          },
        ]
      }
      case 'tool/code-dispatch': {
        const announce = this.announce(e.data.subCallId, dispatchCall(e.data))
        this.#subCalls.delete(e.data.subCallId)
        return [...announce, subCallResultUpdate(this.#env, e.data)]
      }
      default:
        return (e.type as string) === 'todo/write' ? [planUpdate(todosOf(event))] : []
    }
  }

  /**
   * The `tool_call` of a call the client has not seen yet: a Code Mode sub-call, which has no `tool/call`
   * event, is announced when it is asked about or starts (or, denied before either, when it settles).
   */
  announce(callId: string, call: CallInfo): SessionUpdate[] {
    if (this.#calls.has(callId) || this.#subCalls.has(callId)) return []
    this.#subCalls.add(callId)
    return [toolCallUpdate(this.#env, callId, call)]
  }

  /** Calls logged or announced but without a result yet (a cancel marks them failed). */
  openCalls(): string[] {
    return [...this.#subCalls, ...this.#calls.keys()]
  }
}

/**
 * The whole history as updates, in log order (requirement 4): user messages, assistant text and
 * reasoning, each call with its final status followed by its result content, then the last plan.
 */
export function replayUpdates(events: readonly SessionEvent[], env: UpdateEnv): SessionUpdate[] {
  const results = new Map<string, LoggedResult>()
  for (const event of events) {
    const e = event as AnySessionEvent
    if (e.type === 'tool/result') results.set(e.data.callId, e.data)
  }
  const out: SessionUpdate[] = []
  let plan: readonly TodoItem[] | undefined
  let expanded = false
  for (const event of events) {
    const e = event as AnySessionEvent
    if ((e.type as string) === 'command/expanded') {
      // The next user message is a slash command's expansion: the client is shown `/name args` (0275).
      expanded = true
      continue
    }
    switch (e.type) {
      case 'user/message': {
        const typed = expanded ? typedCommandOf(e.data.content.map(blockText).join('\n')) : undefined
        expanded = false
        if (typed !== undefined) out.push(chunk('user_message_chunk', typed))
        // an image the client sent comes back as the image it was (docs/decisions/0285-user-images.md)
        for (const block of e.data.content)
          if (block.type === 'image')
            out.push({
              sessionUpdate: 'user_message_chunk',
              content: { type: 'image', data: block.data, mimeType: block.mimeType },
            })
          else if (typed === undefined) out.push(chunk('user_message_chunk', blockText(block)))
        break
      }
      case 'assistant/message':
        for (const block of e.data.content) {
          if (block.type === 'text' && block.text !== '') out.push(chunk('agent_message_chunk', block.text))
          if (block.type === 'reasoning' && block.text !== '')
            out.push(chunk('agent_thought_chunk', block.text))
        }
        break
      case 'tool/call': {
        const call = { name: e.data.name, args: parseArguments(e.data.arguments) }
        const result = results.get(e.data.callId)
        // A call without a result was cut off (crash recovery closes its turn): it failed.
        const status: ToolCallStatus = result && !result.isError ? 'completed' : 'failed'
        out.push({ ...toolCallUpdate(env, e.data.callId, call), status } as SessionUpdate)
        out.push(
          result
            ? toolResultUpdate(env, e.data.callId, result, call.args)
            : { sessionUpdate: 'tool_call_update', toolCallId: e.data.callId, status: 'failed' },
        )
        break
      }
      case 'tool/code-dispatch': {
        const sub = toolCallUpdate(env, e.data.subCallId, dispatchCall(e.data))
        out.push({ ...sub, status: e.data.isError ? 'failed' : 'completed' } as SessionUpdate)
        out.push(subCallResultUpdate(env, e.data))
        break
      }
      default:
        if ((e.type as string) === 'todo/write') plan = todosOf(event)
    }
  }
  if (plan) out.push(planUpdate(plan))
  return out
}

function todosOf(event: SessionEvent): readonly TodoItem[] {
  const { todos } = event.data as { todos?: readonly TodoItem[] }
  return Array.isArray(todos) ? todos : []
}
