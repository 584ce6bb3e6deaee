// The project `.claude/settings.json` of the hook-event acceptance tests: every one of Claude Code's 33
// hook events (protocols.md §A.4 `HOOK_EVENTS`) hooked with a bash + jq command that appends its payload,
// one compact line, to a log — plus, per event, anything a test adds after it (an exit 2, an echo).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CLAUDE_POINTS } from '@tack/hooks-claude'
import { jsonLines } from './helpers.ts'

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
] as const

/** Events tack fires (the rest are listed as not fired by `packages/hooks-claude/README.md`). */
export const FIRED: ReadonlySet<string> = new Set(CLAUDE_POINTS)

/** Writes `<workspace>/.claude/settings.json` logging every event to `log`; `extra[event]` runs after. */
export async function writeAllEventsSettings(
  workspace: string,
  log: string,
  extra: Partial<Record<string, string>> = {},
): Promise<void> {
  const hooks: Record<string, unknown> = {}
  for (const event of HOOK_EVENTS) {
    const record = `jq -c . >> '${log}'`
    hooks[event] = [
      { hooks: [{ type: 'command', command: extra[event] ? `${record}; ${extra[event]}` : record }] },
    ]
  }
  await mkdir(join(workspace, '.claude'), { recursive: true })
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2))
}

/** The payloads the hooks logged, in order. */
export async function loggedPayloads(log: string): Promise<Array<Record<string, unknown>>> {
  return jsonLines(await readFile(log, 'utf8').catch(() => ''))
}

/** How many payloads each event logged. */
export function countsOf(payloads: ReadonlyArray<Record<string, unknown>>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const p of payloads) counts[String(p.hook_event_name)] = (counts[String(p.hook_event_name)] ?? 0) + 1
  return counts
}
