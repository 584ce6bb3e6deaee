// What the screen does with a slash command's answer (packages/commands/README.md, the TUI column):
// text is shown, a prompt is sent as if typed, clear and resume switch sessions, a list opens a picker,
// errors and unknown names are said in one line.
import type { CommandChoices, CommandResult } from '@tack/commands'
import type { NoticeEntry } from './view-model.ts'

export interface CommandActions {
  notice(text: string, tone: NoticeEntry['tone']): void
  send(text: string): void
  clear(): Promise<void>
  resume(sessionId: string | undefined): Promise<void>
  exit(): void
  /** Shows a picker; resolves when it closes (the pick runs `/<command> <value>`). */
  choose(choices: CommandChoices): Promise<void>
}

export async function applyCommandResult(result: CommandResult, actions: CommandActions): Promise<void> {
  switch (result.kind) {
    case 'text':
      actions.notice(result.text, 'plain')
      return
    case 'prompt':
      if (result.notice) actions.notice(result.notice, 'info')
      actions.send(result.text)
      return
    case 'clear':
      await actions.clear()
      return
    case 'resume':
      await actions.resume(result.sessionId)
      if (result.notice) actions.notice(result.notice, 'info')
      return
    case 'exit':
      actions.exit()
      return
    case 'choose':
      await actions.choose(result)
      return
    case 'error':
      actions.notice(result.message, 'error')
      return
    case 'unknown':
      actions.notice(`unknown command /${result.name} (/help lists them)`, 'warning')
      return
  }
}
