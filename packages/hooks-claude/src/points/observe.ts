// Observe-only points (claude-code-hook-events.md), run detached: nothing they answer changes tack.
// Notification on `ui/notification` (the interactive UI: a permission question waiting, the prompt box
// idle): `notification_type` `permission_prompt` / `idle_prompt`, `message`. InstructionsLoaded on
// `agent/instructions-loaded`, once per file read: `file_path`, `memory_type` (`User` for $TACK_HOME's
// file, `Project` for the repository's), `load_reason` (`session_start`: tack reads them on a session's
// first request and nowhere else).
import type { Agent, InstructionsLoadReason, LoadedInstructionFile } from '@tack/agent'
import type { UiNotification } from '@tack/commands'
import type { ClaudeBridge } from '../bridge.ts'

const NOTIFICATION_TYPE: Readonly<Record<UiNotification['kind'], string>> = {
  'permission-prompt': 'permission_prompt',
  'idle-prompt': 'idle_prompt',
}

const MEMORY_TYPE: Readonly<Record<LoadedInstructionFile['scope'], string>> = {
  user: 'User',
  project: 'Project',
}

const LOAD_REASON: Readonly<Record<InstructionsLoadReason, string>> = {
  'session-start': 'session_start',
}

export function onNotification(bridge: ClaudeBridge, agent: Agent, note: UiNotification): void {
  const type = NOTIFICATION_TYPE[note.kind]
  if (!bridge.mayRun('Notification', agent, [type])) return
  const chain = bridge.runPoint({
    point: 'Notification',
    agent,
    fields: { message: note.message, notification_type: type },
    subjects: [type],
    signal: bridge.state(agent).detachedSignal,
  })
  bridge.detach(agent, chain, 'Notification hooks')
}

export function onInstructionsLoaded(
  bridge: ClaudeBridge,
  agent: Agent,
  files: readonly LoadedInstructionFile[],
  reason: InstructionsLoadReason,
): void {
  const loadReason = LOAD_REASON[reason]
  if (!bridge.mayRun('InstructionsLoaded', agent, [loadReason])) return
  // One after another, in the order the files were read.
  const chain = (async () => {
    for (const file of files) {
      await bridge.runPoint({
        point: 'InstructionsLoaded',
        agent,
        fields: { file_path: file.path, memory_type: MEMORY_TYPE[file.scope], load_reason: loadReason },
        subjects: [loadReason],
        signal: bridge.state(agent).detachedSignal,
      })
    }
  })()
  bridge.detach(agent, chain, 'InstructionsLoaded hooks')
}
