// The UI's events (65-mod-host.md requirement 10; 80-cli.md §7.3) served on `@tack/commands`' seams:
// `prompt.edit` on `ui/prompt-edit`, `prompt.suggest` on `ui/prompt-suggest`, `command.run` on
// `ui/command`. Hosts fire only the seams (the TUI, headless `tack run "/name"`, ACP); tack's own
// behaviour is the seam's `next()`, which the mods' core calls.
import type { Agent } from '@tack/agent'
import type { CommandRequest, CommandResult, PromptBox } from '@tack/commands'
import { isObject, type Mapping } from './shared.ts'

type Answer = Readonly<Record<string, unknown>>

export function installUiEvents(m: Mapping): void {
  installCommandRun(m)
  m.ctx.on('ui/prompt-edit', async (agent, edit, next) => {
    if (!(await modsOn(m, agent, 'prompt.edit'))) return next()
    let below: PromptBox | undefined
    const core = async (): Promise<Answer> => {
      below = await next()
      return { ...below }
    }
    const e = {
      origin: { kind: 'composer' },
      ...(edit.key !== undefined ? { key: edit.key } : {}),
      text: edit.text,
      cursor: edit.cursor,
      start: edit.start,
      end: edit.end,
      inputText: edit.inputText,
    }
    const answer = await m.host.fire('prompt.edit', agent, e, core)
    if (isObject(answer) && typeof answer.text === 'string')
      return {
        text: answer.text,
        cursor: clampCursor(answer.cursor, answer.text.length),
      }
    return below ?? { text: edit.text, cursor: edit.cursor }
  })
  m.ctx.on('ui/prompt-suggest', async (agent, suggestion, next) => {
    if (!(await modsOn(m, agent, 'prompt.suggest'))) return next()
    let below: { readonly isShown: boolean } | undefined
    const core = async (): Promise<Answer> => {
      below = await next()
      return { ...below }
    }
    const answer = await m.host.fire(
      'prompt.suggest',
      agent,
      { text: suggestion.text, origin: { kind: 'suggestion' } },
      core,
    )
    if (isObject(answer) && typeof answer.isShown === 'boolean') return { isShown: answer.isShown }
    return below ?? { isShown: false }
  })
}

function installCommandRun(m: Mapping): void {
  m.ctx.on(
    'ui/command',
    async (agent: Agent, request: CommandRequest, next: () => Promise<CommandResult>) => {
      if (!(await modsOn(m, agent, 'command.run'))) return next()
      const own = new WeakMap<object, CommandResult>()
      const core = async (): Promise<Answer> => {
        const result = await next()
        const shaped = modAnswerOf(result)
        own.set(shaped, result)
        return shaped
      }
      const e = {
        command: request.name,
        args: request.args,
        origin: { kind: request.surface === 'tui' ? 'composer' : 'sdk' },
        presentation: { isFullscreen: false, columns: request.columns },
      }
      const answer = await m.host.fire('command.run', agent, e, core, request.signal)
      if (!isObject(answer)) return { kind: 'text', text: '' }
      const passed = own.get(answer)
      if (passed) return passed
      return commandResultOf(answer)
    },
  )
}

/** Whether `agent`'s session has a mod hooking `event` (after its mods loaded and session.start ran). */
async function modsOn(m: Mapping, agent: Agent, event: 'prompt.edit' | 'prompt.suggest' | 'command.run') {
  const mods = m.host.sessionOf(agent)
  if (!mods) return false
  await mods.ready
  await mods.sessionStart
  return mods.has(event)
}

/** tack's result as a mod's `command.run` answer: what it shows is `text`, what it sends the model `context`. */
export function modAnswerOf(result: CommandResult): Answer {
  switch (result.kind) {
    case 'text':
      return { text: result.text }
    case 'prompt':
      return { ...(result.notice ? { text: result.notice } : {}), context: result.text }
    case 'error':
      return { text: result.message }
    default:
      return {}
  }
}

/** A mod's answer, which skips the command: `context` goes to the model (shown `text` first), else `text` shows. */
function commandResultOf(answer: Answer): CommandResult {
  const text = typeof answer.text === 'string' ? answer.text : undefined
  if (typeof answer.context === 'string' && answer.context !== '')
    return { kind: 'prompt', text: answer.context, ...(text ? { notice: text } : {}) }
  return { kind: 'text', text: text ?? '' }
}

function clampCursor(cursor: unknown, length: number): number {
  return typeof cursor === 'number' && Number.isInteger(cursor)
    ? Math.max(0, Math.min(cursor, length))
    : length
}
