// What points read beyond a merged outcome (`ClaudeBridge.runPoint(req, runs)`): each handler's own
// output, e.g. to name the command that blocked, as Claude Code's messages do.
import type { HookOutput } from '@tack/hook-protocol'
import type { DiscoveredHandler } from './settings/source.ts'

/** One handler's run at a point, for points that read more than the merged outcome. */
export interface HandlerRun {
  readonly handler: DiscoveredHandler
  readonly output: HookOutput
}

/**
 * What a blocking hook said, naming its command as Claude Code does (`[<command>]: <stderr>`): the block
 * reasons of `runs` (exit 2 or a JSON block), one per blocking handler, else `fallback`.
 */
export function blockingMessages(runs: readonly HandlerRun[], fallback: string | undefined): string[] {
  const named = runs
    .filter((r) => r.output.decision === 'block' || r.output.decision === 'deny')
    .map((r) => `[${String(r.handler.handler.command)}]: ${r.output.reason || 'No stderr output'}`)
  return named.length > 0 ? named : fallback ? [fallback] : []
}
