// Runs the Codex CLI (OpenAI's, a native binary) headless (`codex exec`) against the loopback model
// server's Responses wire (see `measure-run.ts`), for the start-up comparison of P1 (90-quality.md:
// time to first request ≤ Codex's). Codex is never a dependency of tack: `codexBinary()` uses a `codex`
// on PATH, else installs the pinned `@openai/codex` npm package into a folder under the system's temp
// folder (kept for the next run). It gives the `codex` command as npm installs it (a Node launcher that
// starts the native binary: what a person runs, as tack's own figure goes through its sh launcher) and
// the native binary alone, so the bench can print both.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { LoopbackEntry } from '@tack/llm/testing'
import { measureRun, type RunMeasure } from './measure-run.ts'

/** The version installed when none is on PATH (`TACK_BENCH_CODEX_VERSION` overrides). */
export const CODEX_VERSION = process.env.TACK_BENCH_CODEX_VERSION ?? '0.171.0'

/**
 * The Codex CLI two ways: `command`, what a person runs (`codex` on PATH, else the npm package's `codex`
 * bin: its Node launcher, which starts the native binary), and `native`, the native binary alone (when it
 * can be found); or a reason Codex is not available.
 */
export function codexBinary(): { command: string; native?: string; source: string } | { missing: string } {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'codex')) && !dir.includes('node_modules'))
      return { command: join(dir, 'codex'), source: `codex on PATH (${dir})` }
  }
  const prefix = join(tmpdir(), `tack-bench-codex-${CODEX_VERSION}`)
  const launcher = join(prefix, 'node_modules', '.bin', 'codex')
  const source = `@openai/codex@${CODEX_VERSION} in ${prefix}`
  const found = nativeIn(prefix)
  if (found && existsSync(launcher)) return { command: launcher, native: found, source }
  mkdirSync(prefix, { recursive: true })
  process.stdout.write(`   installing @openai/codex@${CODEX_VERSION} into ${prefix} (once)\n`)
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `@openai/codex@${CODEX_VERSION}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const installed = nativeIn(prefix)
  if (npm.status !== 0 || !installed || !existsSync(launcher))
    return {
      missing: `npm install @openai/codex@${CODEX_VERSION} failed: ${(npm.stderr || npm.stdout).trim().split('\n').at(-1)}`,
    }
  return { command: launcher, native: installed, source }
}

/** The platform package's native binary under an npm prefix (`@openai/codex-<platform>/vendor/<triple>/bin/codex`). */
function nativeIn(prefix: string): string | undefined {
  const scope = join(prefix, 'node_modules', '@openai')
  if (!existsSync(scope)) return undefined
  for (const pkg of readdirSync(scope).filter((p) => p.startsWith('codex-'))) {
    const vendor = join(scope, pkg, 'vendor')
    if (!existsSync(vendor)) continue
    for (const triple of readdirSync(vendor)) {
      const bin = join(vendor, triple, 'bin', 'codex')
      if (existsSync(bin)) return bin
    }
  }
  return undefined
}

export async function measureCodexRun(opts: {
  codex: string
  script: LoopbackEntry[]
  task: string
  prepare?: (workspace: string) => Promise<void>
  /** A CODEX_HOME kept across runs (as a person's is); default a fresh one per run. */
  codexHome?: string
}): Promise<RunMeasure> {
  return measureRun({
    script: opts.script,
    ...(opts.prepare ? { prepare: opts.prepare } : {}),
    async command({ root, baseUrl }) {
      // Codex refuses a CODEX_HOME that does not exist
      const home = opts.codexHome ?? join(root, 'codex-home')
      await mkdir(home, { recursive: true })
      const provider = `model_providers.loop={name="loop",base_url="${baseUrl}",wire_api="responses",env_key="LOOP_API_KEY"}`
      return {
        program: opts.codex,
        args: [
          'exec',
          '--skip-git-repo-check',
          '-c',
          provider,
          '-c',
          'model_provider=loop',
          '-m',
          'bench',
          opts.task,
        ],
        env: { CODEX_HOME: home, LOOP_API_KEY: 'loopback' },
      }
    },
  })
}
