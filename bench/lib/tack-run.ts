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
  /**
   * Node flags: the binary then runs as `node <flags> bin/tack.js`, bypassing the launcher's own line
   * (a probe's `--cpu-prof`, V8 heap sizing trials). Without them it runs as a user runs it, as a
   * program, so the launcher's Node flags apply.
   */
  nodeFlags?: readonly string[]
  /** Another checkout's `bin/tack.js` (an A/B comparison against a baseline build). */
  bin?: string
  /** A TACK_HOME kept across runs (as a person's is); default a fresh one per run. */
  tackHome?: string
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
      const bin = opts.bin ?? TACK_BIN
      return {
        ...(opts.nodeFlags ? {} : { program: bin }),
        args: [
          ...(opts.nodeFlags ? [...opts.nodeFlags, bin] : []),
          'run',
          '--config',
          config,
          '--model',
          'loop/bench',
          ...(opts.extraArgs ?? []),
          opts.task,
        ],
        env: { TACK_HOME: opts.tackHome ?? join(root, 'tack-home') },
      }
    },
  })
}
