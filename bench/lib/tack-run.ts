// Runs the real `tack run` binary against the loopback model server (see `measure-run.ts`).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LoopbackEntry } from '@tack/llm/testing'
import { measureRun, type RunMeasure } from './measure-run.ts'

export type { RunMeasure } from './measure-run.ts'

export const TACK_BIN = fileURLToPath(new URL('../../apps/tack/bin/tack.js', import.meta.url))

export async function measureTackRun(opts: {
  script: LoopbackEntry[]
  task: string
  prepare?: (workspace: string) => Promise<void>
  extraArgs?: string[]
  /** More YAML for the run's config file (e.g. `  dice: false` lines under `plugins:`). */
  pluginsYaml?: string
  /** Node flags before the binary (a probe's `--cpu-prof`, V8 heap sizing trials). */
  nodeFlags?: readonly string[]
  /** Another checkout's `bin/tack.js` (an A/B comparison against a baseline build). */
  bin?: string
}): Promise<RunMeasure> {
  return measureRun({
    script: opts.script,
    ...(opts.prepare ? { prepare: opts.prepare } : {}),
    async command({ root, baseUrl }) {
      const config = join(root, 'bench.yml')
      await writeFile(
        config,
        `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${baseUrl}" }\n${opts.pluginsYaml ?? ''}`,
      )
      return {
        args: [
          ...(opts.nodeFlags ?? []),
          opts.bin ?? TACK_BIN,
          'run',
          '--config',
          config,
          '--model',
          'loop/bench',
          ...(opts.extraArgs ?? []),
          opts.task,
        ],
        env: { TACK_HOME: join(root, 'tack-home') },
      }
    },
  })
}
