// The mod host's test entry (packages/mods/README.md "Testing a mod"): load mod folders into a
// scripted tack session and fire the UI events tack's interactive UI does not raise yet.
import type { Agent } from '@tack/agent'
import type { Context } from 'cordis'
import type { ModsConfigInput, ModSpec } from './config.ts'
import { fireUiEvent, type UiEventName } from './events/ui.ts'
import { ModsPlugin } from './plugin.ts'

/** A `TestPlugin` for `createTestAgent({plugins: [modsTestPlugin([{dir}])]})`. */
export function modsTestPlugin(mods: readonly ModSpec[], config: Omit<ModsConfigInput, 'mods'> = {}) {
  return { plugin: ModsPlugin, config: { ...config, mods } }
}

/** Fires `prompt.edit`, `prompt.suggest` or `command.run` for `agent`'s session; resolves to the answer. */
export function fireModEvent(
  ctx: Context,
  agent: Agent,
  event: UiEventName,
  e: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  return fireUiEvent(ctx.mods, agent, event, e)
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
