// Harness B of R27: the shared scenarios in a scripted tack session (tack's loop and log, a scripted model)
// with the real mod host, `@tack/mods`, loading the shipped `mod/` folder unchanged. Each event goes
// through the host's own dispatch (`ctx.mods.fire` / `.stream`: frozen `e`, budgets, fail-open, `.catch`)
// with the real `$` — real files under a temporary `TACK_HOME`, the real `mv`, the real clock. Only the
// heartbeat interval is a fake timer, so a 30 s beat runs at once.
import { readdirSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestAgent, type TestAgent } from '@tack/agent/testing'
import { modsIdle, modsTestPlugin } from '@tack/mods/testing'
import { vi } from 'vitest'
import type { Capability, Driver, Setup } from './driver.ts'

export const MOD_DIR = fileURLToPath(new URL('../../mod', import.meta.url))
/** The id the scenarios name their files by; tack's own session id is mapped onto it. */
const SCENARIO_ID = 'session-a1'

type Ev = Readonly<Record<string, unknown>>
type StepChain = AsyncGenerator<unknown, unknown>

async function filesIn(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => null)
    if (text !== null) out[name] = text
  }
  return out
}

export type HarnessB = Driver & {
  /** The files the host's own `session.start` (fired when tack created the session) wrote. */
  bootFiles(): Promise<Record<string, string>>
  dispose(): Promise<void>
}

export async function harnessB(setup: Setup = {}): Promise<HarnessB> {
  const root = await mkdtemp(join(tmpdir(), 'agent-state-b-'))
  const savedTackHome = process.env.TACK_HOME
  const restore = () => {
    if (savedTackHome === undefined) delete process.env.TACK_HOME
    else process.env.TACK_HOME = savedTackHome
  }
  // tack fires `session.start` itself when the session is created: that open goes to a boot folder, then
  // the scenario's own `session.start` reopens into the scenario folder, so both start from nothing.
  process.env.TACK_HOME = join(root, 'boot')
  let t: TestAgent
  try {
    t = await createTestAgent({
      script: [],
      plugins: [
        modsTestPlugin(
          [{ dir: MOD_DIR, options: setup.outputDir === undefined ? {} : { outputDir: setup.outputDir } }],
          { dataDir: join(root, 'data') },
        ),
      ],
    })
  } catch (error) {
    restore()
    throw error
  }
  const mods = t.ctx.mods.sessionOf(t.agent)
  if (!mods) throw new Error('harness B: the mod host opened no session for the agent-state mod')
  await mods.ready
  await mods.sessionStart
  await modsIdle(t.ctx, t.agent)
  process.env.TACK_HOME = join(root, 'home')
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  const output = join(root, 'home', 'agent-state')
  // real files take real time: settled is when the session's mods have no `$` call in flight
  const idle = () => modsIdle(t.ctx, t.agent)
  const realId = t.agent.id
  const asScenario = (text: string) => text.split(realId).join(SCENARIO_ID)
  /** Every file anywhere the mod could have written: the scenario's tack home and the workspace. */
  const written = () =>
    [join(root, 'home'), t.cwd].flatMap((dir) => {
      try {
        return readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => join(f.parentPath, f.name))
      } catch {
        return []
      }
    })
  const capabilities = new Set<Capability>(['prompt-box', 'classic'])
  const fire = (event: string, e: Ev, core: (e: unknown) => unknown = (x) => x) =>
    // biome-ignore lint/suspicious/noExplicitAny: the scenarios fire every event by name, as Claude Code would
    t.ctx.mods.fire(event as any, t.agent, e, async (e2) => core(e2))
  return {
    host: 'tack',
    capabilities,
    fire,
    async step(e, chunks, result) {
      const core = () =>
        (async function* () {
          for (const chunk of chunks) yield chunk
          return result
        })()
      const chain = mods.stream('turn.step', t.agent, e, core as never) as unknown as StepChain
      const seen: unknown[] = []
      for (;;) {
        const r = await chain.next()
        if (r.done) return { chunks: seen, result: r.value }
        seen.push(r.value)
      }
    },
    async beat(ms) {
      await idle() // an open still gathering has not started its timer yet
      vi.advanceTimersByTime(ms)
      await idle()
    },
    setSessionId() {
      throw new Error('harness B: tack gives a cleared session a new instance (capability host-facts)')
    },
    settle: idle,
    async files() {
      const out: Record<string, string> = {}
      for (const [name, text] of Object.entries(await filesIn(output))) {
        out[asScenario(name)] = asScenario(text)
      }
      return out
    },
    allWrites: written,
    uiCalls: () => 0,
    bootFiles: () => filesIn(join(root, 'boot', 'agent-state')),
    async dispose() {
      vi.useRealTimers()
      await t.dispose().catch(() => {})
      restore()
      await rm(root, { recursive: true, force: true })
    },
  }
}
