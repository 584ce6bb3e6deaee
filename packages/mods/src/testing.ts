// The mod host's test entry (packages/mods/README.md "Testing a mod"): load mod folders into a
// scripted tack session and fire the UI events the way the interactive UI does, through the seams of
// `@tack/commands` (`ui/prompt-edit`, `ui/prompt-suggest`, `ui/command`).
import type { ConfigInput } from '@tack/kernel'
import type { Agent } from '@tack/agent'
import { fireCommand, firePromptEdit, firePromptSuggest } from '@tack/commands'
import type { Context } from 'cordis'
import type { ModsConfig, ModSpec } from './config.ts'
import { modAnswerOf } from './events/ui.ts'
import { ModsPlugin } from './plugin.ts'

export type UiEventName = 'prompt.edit' | 'prompt.suggest' | 'command.run'

/** A `TestPlugin` for `createTestAgent({plugins: [modsTestPlugin([{dir}])]})`. */
export function modsTestPlugin(
  mods: readonly ModSpec[],
  config: Omit<ConfigInput<typeof ModsConfig>, 'mods'> = {},
) {
  return { plugin: ModsPlugin, config: { ...config, mods } }
}

/**
 * Fires `prompt.edit`, `prompt.suggest` or `command.run` for `agent`'s session through its seam; resolves
 * to the answer in the mods' shape (`command.run`: `{text?, context?}`, `{}` when nothing ran).
 */
export async function fireModEvent(
  ctx: Context,
  agent: Agent,
  event: UiEventName,
  e: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const num = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback)
  const text = typeof e.text === 'string' ? e.text : ''
  switch (event) {
    case 'prompt.edit':
      return firePromptEdit(ctx, agent, {
        ...(typeof e.key === 'string' ? { key: e.key } : {}),
        text,
        cursor: num(e.cursor, text.length),
        start: num(e.start, 0),
        end: num(e.end, text.length),
        inputText: typeof e.inputText === 'string' ? e.inputText : '',
      })
    case 'prompt.suggest':
      return firePromptSuggest(ctx, agent, { text })
    case 'command.run': {
      const origin = e.origin as { kind?: unknown } | undefined
      const presentation = e.presentation as { columns?: unknown } | undefined
      const result = await fireCommand(
        ctx,
        agent,
        String(e.command),
        typeof e.args === 'string' ? e.args : '',
        {
          surface: origin?.kind === 'composer' ? 'tui' : 'headless',
          columns: num(presentation?.columns, 80),
        },
      )
      return modAnswerOf(result)
    }
  }
}

/** Settles once the session's mod instances are loaded and `session.start` has run. */
export async function modsReady(ctx: Context, agent: Agent): Promise<void> {
  const mods = ctx.mods.sessionOf(agent)
  await mods?.ready
  await mods?.sessionStart
}

/**
 * Settles once the session's mods have no `$` call in flight (their files written, their processes run):
 * what a test awaits before it reads what a mod wrote. Timers and `$.clock.sleep` are not waited for.
 */
export async function modsIdle(ctx: Context, agent: Agent): Promise<void> {
  await ctx.mods.sessionOf(agent)?.idle()
}
