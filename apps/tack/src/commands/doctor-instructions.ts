// `tack doctor`'s lines about project instructions (issue 10 item 2): which AGENTS.md / CLAUDE.md files a
// new session in this workspace reads, in order, and a warning when the cap would cut them.
import { findInstructionFiles, readInstructions, skippedWarning } from '../instructions/discover.ts'
import { InstructionsConfig } from '../instructions/plugin.ts'
import type { Resolved } from '../settings.ts'

export function reportInstructions(
  r: Resolved,
  line: (label: string, value: string) => void,
  warnings: string[],
): void {
  const configured = r.settings.plugins.instructions
  if (configured === false) {
    line('instructions', 'off (plugins.instructions: false)')
    return
  }
  const config = InstructionsConfig.parse(configured ?? {})
  if (!config.enabled) {
    line('instructions', 'off (plugins.instructions.enabled: false)')
    return
  }
  const files = findInstructionFiles({
    tackHome: r.paths.home,
    cwd: r.cwd,
    onSkip: (skipped) => warnings.push(skippedWarning(skipped)),
  })
  const read = readInstructions(files, config.maxBytes)
  if (read.files.length === 0) {
    line('instructions', `(none found: AGENTS.md or CLAUDE.md in ${r.paths.home} or the repository)`)
    return
  }
  for (const f of read.files) {
    const part = f.included < f.bytes ? `, ${f.included} of them read (cap)` : ''
    line('instructions', `${f.path} (${f.scope}, ${f.bytes} bytes${part})`)
  }
  if (read.cut)
    warnings.push(
      `project instructions exceed plugins.instructions.maxBytes (${config.maxBytes}): a new session reads them cut`,
    )
}
