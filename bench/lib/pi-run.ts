// Runs the pi coding agent (`@mariozechner/pi-coding-agent`, a dev dependency) headless
// (`pi -p --no-session`) against the loopback model server (see `measure-run.ts`), with its own
// agent folder holding a `models.json` that points a `loop` provider at the server.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LoopbackEntry } from '@tack/llm/testing'
import { measureRun, type RunMeasure } from './measure-run.ts'

/** pi's CLI entry, resolved from the installed package (its `exports` do not expose it). */
export function piCli(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@mariozechner/pi-coding-agent'))), 'cli.js')
}

export async function measurePiRun(opts: {
  script: LoopbackEntry[]
  task: string
  prepare?: (workspace: string) => Promise<void>
}): Promise<RunMeasure> {
  return measureRun({
    script: opts.script,
    ...(opts.prepare ? { prepare: opts.prepare } : {}),
    async command({ root, baseUrl }) {
      const agentDir = await writePiAgentDir(root, baseUrl)
      return {
        args: [piCli(), '-p', '--no-session', '--model', 'loop/bench', opts.task],
        env: { PI_CODING_AGENT_DIR: agentDir },
      }
    },
  })
}

/**
 * `<root>/pi-agent` (pi's `PI_CODING_AGENT_DIR`) with a `models.json` whose `loop` provider points at
 * `baseUrl`, so `--model loop/bench` talks to the bench's server. Returns the folder.
 */
export async function writePiAgentDir(root: string, baseUrl: string): Promise<string> {
  const agentDir = join(root, 'pi-agent')
  await mkdir(agentDir, { recursive: true })
  const provider = {
    baseUrl,
    api: 'openai-completions',
    apiKey: 'loopback',
    // The loopback server speaks plain Chat Completions: a system message, no reasoning effort.
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: 'bench' }],
  }
  await writeFile(join(agentDir, 'models.json'), JSON.stringify({ providers: { loop: provider } }))
  return agentDir
}
