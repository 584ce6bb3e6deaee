// Dispatches a hook by name; shared by the hook files and `agent-dice hook <name>`.
import { claudeSessionStart, claudeStop } from './claude.ts'
import { codexSessionStart, codexStop } from './codex.ts'
import type { HookExit, HookIo, HookName } from './io.ts'

export function runHook(name: HookName, io: HookIo): Promise<HookExit> {
  switch (name) {
    case 'claude-stop':
      return claudeStop(io)
    case 'claude-session-start':
      return claudeSessionStart(io)
    case 'codex-stop':
      return codexStop(io)
    case 'codex-session-start':
      return codexSessionStart(io)
    default: {
      const never: never = name
      return never
    }
  }
}
