// Claude Code caps hook text it passes on (additionalContext, systemMessage, plain stdout) at 10 000
// characters: longer text is saved to a file and the reader gets a preview and the path. The bridge
// does the same for every text it takes from a hook (reasons included), so nothing unbounded reaches
// the model, the log or the user.
import { join } from 'node:path'
import { privateFolder, writePrivateFile } from '@tack/kernel/private-files'
import type { HookOutput } from '@tack/hook-protocol'

/** Claude Code's limit; a protocol fact, not a tunable. */
export const HOOK_TEXT_MAX_CHARS = 10_000
/** How much of a spilled text stays inline. */
export const HOOK_TEXT_PREVIEW_CHARS = 2_000

export interface Spill {
  /** Saves `text` and returns its path, or undefined when it could not be saved. */
  save(text: string): string | undefined
}

/** A spill into `<dir>/<n>.txt` (folder created on first use). */
export function fileSpill(dir: string): Spill {
  let n = 0
  return {
    save(text) {
      try {
        privateFolder(dir)
        const path = join(dir, `${Date.now().toString(36)}-${process.pid}-${++n}.txt`)
        writePrivateFile(path, text)
        return path
      } catch {
        return undefined
      }
    },
  }
}

export function boundText(text: string, spill: Spill): string {
  if (text.length <= HOOK_TEXT_MAX_CHARS) return text
  const path = spill.save(text)
  const where = path ? `saved in full to ${path}` : 'the rest was dropped'
  return `${text.slice(0, HOOK_TEXT_PREVIEW_CHARS)}...\n[hook output of ${text.length} characters; ${where}]`
}

/** `output` with every text a bridge passes on bounded. */
export function boundOutput(output: HookOutput, spill: Spill): HookOutput {
  const bound = (s: string | undefined) => (s === undefined ? undefined : boundText(s, spill))
  const next: { -readonly [K in keyof HookOutput]: HookOutput[K] } = { ...output }
  if (output.stdout.length > HOOK_TEXT_MAX_CHARS) next.stdout = boundText(output.stdout, spill)
  for (const key of ['reason', 'additionalContext', 'systemMessage', 'stopReason'] as const) {
    const v = bound(output[key])
    if (v !== undefined) next[key] = v
  }
  return next
}
