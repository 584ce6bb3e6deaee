// The plugin that registers `bash` on the tool registry (disposing it removes the tool, TL-1),
// removes spill files older than `scratchMaxAgeHours`, and sweeps the sandbox placeholders a killed tack
// left in workspaces (docs/decisions/0016-bash-sandbox.md).
import { sweepPlaceholders } from '@tack/process'
import { definePlugin } from '@tack/kernel'
import { registerTool } from '@tack/tools'
import { createBashTool } from './bash-tool.ts'
import { BashToolConfig } from './config.ts'
import { placeholderLedger } from './sandbox-policy.ts'
import { sweepScratch } from './scratch.ts'

const HOUR_MS = 3_600_000

export const BashToolPlugin = definePlugin({
  name: 'tool-bash',
  Config: BashToolConfig,
  inject: ['tools'],
  async apply(ctx, config) {
    registerTool(ctx, createBashTool(config, { secrets: ctx.secrets }))
    // Old spill files go at load (issue 12.7): each session start bounds what the scratch folder keeps.
    if (config.scratchMaxAgeHours > 0)
      await sweepScratch(config.scratchRoot, config.scratchMaxAgeHours * HOUR_MS)
    const ledger = placeholderLedger(config)
    // Awaited: a run without a bash call would otherwise exit before the sweep is done and leave a killed
    // run's placeholders in the workspace (the R1 test caught it). It reads one small folder; every
    // sandboxed call sweeps again before it runs.
    if (ledger) await sweepPlaceholders(ledger).catch(() => {})
  },
})
