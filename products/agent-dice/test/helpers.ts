// Shared test fixtures: temp folders, a seedable RNG, an in-memory DiceHost, slot builders, and
// real child processes of the built hook and CLI files.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CoreCheckContext, DiceHost, DiceSlotConfig, DiceState } from '../src/core/types.ts'

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const NODE = process.execPath

export const tempDir = (label = 'agent-dice-') => mkdtempSync(join(tmpdir(), label))

/** Deterministic mulberry32, the public conformance suite's RNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function slot(overrides: Partial<DiceSlotConfig> & { name: string }): DiceSlotConfig {
  return {
    die: 20,
    target: 20,
    targetMode: 'exact',
    type: 'accumulator',
    accumulationRate: 7,
    maxDice: 100,
    fixedCount: 1,
    cooldown: 'per-session',
    clearOnSessionStart: true,
    resetOnTrigger: true,
    flavor: true,
    onTrigger: { message: 'm' },
    ...overrides,
  }
}

export const FIXED_NOW = Date.parse('2026-01-02T03:04:05.000Z')

export interface MemoryHost extends DiceHost {
  state: Map<string, DiceState>
  cooldown: Set<string>
  writes: string[]
  rngCalls: number
}

export function memoryHost(slots: unknown[], rng?: () => number): MemoryHost {
  const key = (s: string, session: string) => `${s}::${session}`
  const host: MemoryHost = {
    state: new Map(),
    cooldown: new Set(),
    writes: [],
    rngCalls: 0,
    async listSlots() {
      return slots as DiceSlotConfig[]
    },
    async getSlot(name) {
      return (slots as DiceSlotConfig[]).find((s) => s?.name === name) ?? null
    },
    async loadState(s, session) {
      return (
        host.state.get(key(s, session)) ?? {
          depth_at_last_trigger: 0,
          last_reset: new Date(FIXED_NOW).toISOString(),
        }
      )
    },
    async saveState(s, session, st) {
      host.writes.push(`state:${s}`)
      host.state.set(key(s, session), st)
    },
    async clearState(s, session) {
      host.writes.push(`clear:${s}`)
      host.state.set(key(s, session), {
        depth_at_last_trigger: 0,
        last_reset: new Date(FIXED_NOW).toISOString(),
      })
    },
    async hasCooldown(s, session) {
      return host.cooldown.has(key(s, session))
    },
    async markTriggered(s, session) {
      host.writes.push(`mark:${s}`)
      host.cooldown.add(key(s, session))
    },
    async clearCooldown(s, session) {
      host.cooldown.delete(key(s, session))
    },
    now: () => FIXED_NOW,
  }
  if (rng) {
    host.rng = () => {
      host.rngCalls++
      return rng()
    }
  }
  return host
}

export function ctx(
  sessionId: string,
  depth?: number,
  continuation?: boolean,
): CoreCheckContext & { calls: number } {
  const c = {
    sessionId,
    calls: 0,
    continuation,
    getCurrentDepth: async () => {
      c.calls++
      return depth
    },
  }
  return c
}

let built = false
/** Builds `dist/` once per test file, so the hook files run JavaScript as in a tarball. */
export function ensureBuilt(): void {
  if (built) return
  const r = spawnSync(NODE, [join(PACKAGE_ROOT, 'scripts', 'build.js')], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`)
  built = true
}

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a file of this package with Node, stdin piped, a given environment. */
export function runNode(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; input?: string; cwd?: string },
) {
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(NODE, [join(PACKAGE_ROOT, file), ...args], { env: options.env, cwd: options.cwd })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}

/** A minimal environment: no inherited DEBUG, session or base variables leak into a test. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}
