// What the screen does with a slash command's answer (packages/commands/README.md, the TUI column):
// text is shown, a prompt is sent as if typed, clear and resume switch sessions, errors and unknown
// names are said in one line.
import type { CommandResult } from '@tack/commands'
import type { NoticeEntry } from './view-model.ts'

export interface CommandActions {
  notice(text: string, tone: NoticeEntry['tone']): void
  send(text: string): void
  clear(): Promise<void>
  resume(sessionId: string | undefined): Promise<void>
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
      return
    case 'error':
      actions.notice(result.message, 'error')
      return
    case 'unknown':
      actions.notice(`unknown command /${result.name} (/help lists them)`, 'warning')
      return
  }
}
