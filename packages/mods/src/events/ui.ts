// The UI's events (65-mod-host.md requirement 10; 80-cli.md §7.3): `prompt.edit`, `prompt.suggest` and
// `command.run`. tack's interactive UI raises them once it exists; until then the host declares them,
// `tack run "/name args"` fires `command.run`, and tests fire all three through `fireUiEvent`.
import type { Agent } from '@tack/agent'
import type { ModHost } from '../host.ts'

export type UiEventName = 'prompt.edit' | 'prompt.suggest' | 'command.run'

/** tack's own behaviour beneath the mods at each UI event. */
const CORES: Readonly<Record<UiEventName, (e: Readonly<Record<string, unknown>>) => Promise<unknown>>> = {
  // the box keeps the edit as typed
  'prompt.edit': async (e) => ({ text: e.text, cursor: e.cursor }),
  // tack shows no suggestion of its own yet; a blank text never shows one
  'prompt.suggest': async () => ({ isShown: false }),
  // tack has no command of this name: nothing ran, nothing to show
  'command.run': async () => ({}),
}

export function fireUiEvent(
  host: ModHost,
  agent: Agent,
  event: UiEventName,
  e: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  return host.fire(event, agent, e, CORES[event])
}

/** `tack run "/name args"`: the parts of a slash command, or undefined for an ordinary prompt. */
export function parseSlashCommand(prompt: string): { command: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(prompt.trim())
  return m ? { command: m[1], args: m[2]?.trim() ?? '' } : undefined
}

/**
 * Fires `command.run` for a headless slash command. Returns the mods' answer when one answered with
 * something to show (`text`), else undefined (the prompt then goes to the model as typed).
 */
export async function runHeadlessCommand(
  host: ModHost,
  agent: Agent,
  prompt: string,
): Promise<{ text?: string; context?: string } | undefined> {
  const parsed = parseSlashCommand(prompt)
  if (!parsed) return undefined
  const answer = (await fireUiEvent(host, agent, 'command.run', {
    command: parsed.command,
    args: parsed.args,
    origin: { kind: 'sdk' },
    presentation: { isFullscreen: false, columns: process.stdout.columns ?? 80 },
  })) as { text?: unknown; context?: unknown }
  if (typeof answer?.text !== 'string' && typeof answer?.context !== 'string') return undefined
  return {
    ...(typeof answer.text === 'string' ? { text: answer.text } : {}),
    ...(typeof answer.context === 'string' ? { context: answer.context } : {}),
  }
}
