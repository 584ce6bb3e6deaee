// When the process that started a sandboxed command is SIGKILLed (tack crashing, R1): the sandbox dies
// with it (`--die-with-parent`), and the placeholder folders it made in the workspace are removed by
// the next sweep of the ledger — but never those a living process still holds.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { runProcess } from '../src/run-process.ts'
import { detectSandbox, type SandboxSupport } from '../src/sandbox/detect.ts'
import { recordHold, sweepPlaceholders } from '../src/sandbox/placeholder-ledger.ts'
import { holdPlaceholder } from '../src/sandbox/placeholders.ts'
import { sandboxWrapper } from '../src/sandbox/wrapper.ts'
import { pidsMatching } from '../src/testing.ts'
import { runOptions, tempDir } from './helpers.ts'

const CHILD = new URL('./sandboxed-child.ts', import.meta.url).pathname

let support: Extract<SandboxSupport, { kind: 'bwrap' }>

beforeAll(async () => {
  const found = await detectSandbox()
  if (found.kind !== 'bwrap') throw new Error(`these tests need bubblewrap: ${JSON.stringify(found)}`)
  support = found
})

interface Started {
  readonly child: ChildProcess
  readonly work: string
  readonly ledger: string
  readonly marker: string
}

/** Starts the stand-in for tack with a sandboxed `sleep` and waits until the sleep runs. */
async function startSleeping(): Promise<Started> {
  const work = await tempDir('tack-crash-work-')
  const ledger = join(await tempDir('tack-crash-home-'), 'placeholders')
  const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  const child = spawn(process.execPath, [CHILD, work, ledger, `touch started; sleep 36.${marker}`], {
    stdio: 'ignore',
  })
  const deadline = Date.now() + 30_000
  while (!existsSync(join(work, 'started')) || pidsMatching(`36.${marker}`).length === 0) {
    if (Date.now() > deadline) throw new Error('the sandboxed sleep never started')
    await delay(20)
  }
  return { child, work, ledger, marker }
}

async function sigkill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

/** Polls until no process of `marker` lives; returns how many were still there at the deadline. */
async function survivors(marker: string, ms: number): Promise<number> {
  const deadline = Date.now() + ms
  for (;;) {
    const left = pidsMatching(marker).length
    if (left === 0 || Date.now() > deadline) return left
    await delay(20)
  }
}

describe('R1 a SIGKILLed parent of a sandboxed command', () => {
  it('9.3 takes the whole sandbox (bwrap, its init, the command) down with it', async () => {
    const { child, marker } = await startSleeping()
    expect(pidsMatching(marker).length).toBeGreaterThanOrEqual(3) // bwrap, the namespace's init, sleep
    await sigkill(child)
    expect(await survivors(marker, 3_000)).toBe(0)
  }, 90_000)

  it('9.3 leaves placeholders that the next sweep removes, but not while a living process holds one', async () => {
    const { child, work, ledger } = await startSleeping()
    expect(existsSync(join(work, '.tack'))).toBe(true)
    expect(existsSync(join(work, '.claude'))).toBe(true)
    // Its holder is alive: nothing to sweep.
    expect(await sweepPlaceholders(ledger)).toEqual([])
    expect(existsSync(join(work, '.tack'))).toBe(true)
    // This process joins the child's `.claude` placeholder, as a second tack in the same workspace would.
    const joined = await holdPlaceholder(join(work, '.claude'), [work], ledger)
    expect(joined?.path).toBe(join(work, '.claude'))
    await sigkill(child)
    expect(existsSync(join(work, '.tack'))).toBe(true) // the killed process could not clean up
    expect(await sweepPlaceholders(ledger)).toEqual([join(work, '.tack')])
    expect(existsSync(join(work, '.tack'))).toBe(false)
    expect(existsSync(join(work, '.claude'))).toBe(true) // still held here
    await joined?.release()
    expect(existsSync(join(work, '.claude'))).toBe(false)
    expect(await readdir(ledger)).toEqual([])
  }, 90_000)

  it('9.3 a leftover placeholder someone wrote into is kept; only its record goes', async () => {
    const { child, work, ledger } = await startSleeping()
    await sigkill(child)
    await writeFile(join(work, '.tack', 'config.yml'), 'model: x\n') // the user's now
    expect(await sweepPlaceholders(ledger)).toEqual([join(work, '.claude')])
    expect(existsSync(join(work, '.tack', 'config.yml'))).toBe(true)
    expect(await readdir(ledger)).toEqual([])
  }, 90_000)

  it('9.3 a sandboxed call sweeps before it runs: a leftover of a killed process goes at the next call', async () => {
    const first = await startSleeping()
    await sigkill(first.child)
    expect(existsSync(join(first.work, '.claude'))).toBe(true)
    const next = spawn(process.execPath, [CHILD, first.work, first.ledger, 'ls -A'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let out = ''
    next.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d))
    await new Promise((resolve) => next.once('close', resolve))
    // Inside, the placeholders of this call; afterwards, nothing of either run.
    expect(out.split('\n')).toEqual(expect.arrayContaining(['.claude', '.tack', 'started']))
    expect((await readdir(first.work)).sort()).toEqual(['started'])
    expect(await readdir(first.ledger)).toEqual([])
  }, 90_000)
})

describe('the placeholder ledger', () => {
  it('R1 a record is written once: holding again never truncates it, so a kill cannot leave it empty', async () => {
    const work = await tempDir('tack-crash-work-')
    const ledger = join(await tempDir('tack-crash-home-'), 'placeholders')
    const placeholder = await holdPlaceholder(join(work, '.claude'), [work], ledger)
    expect(placeholder?.path).toBe(join(work, '.claude'))
    const [record] = await readdir(ledger)
    expect(await readFile(join(ledger, record), 'utf8')).toBe(join(work, '.claude'))
    // A rewrite would show here: the record is first emptied by the truncation a rewrite starts with.
    await writeFile(join(ledger, record), 'as first written')
    await recordHold(ledger, join(work, '.claude'))
    expect(await readFile(join(ledger, record), 'utf8')).toBe('as first written')
    await writeFile(join(ledger, record), join(work, '.claude'))
    await placeholder?.release()
    expect(existsSync(join(work, '.claude'))).toBe(false)
    expect(await readdir(ledger)).toEqual([])
  })

  it('9.3 one that cannot be written does not stop the command; the placeholder still protects and goes', async () => {
    const work = await tempDir('tack-crash-work-')
    const blocker = join(await tempDir('tack-crash-home-'), 'not-a-folder')
    await writeFile(blocker, '') // the ledger path's parent is a file: every write fails
    const policy = {
      writable: [work],
      readOnly: [join(work, '.claude')],
      hidden: [],
      revealed: [],
      network: false,
    }
    const run = await runProcess(
      runOptions(work, {
        command: 'touch .claude/x 2>/dev/null || echo protected',
        wrapper: sandboxWrapper(support, policy, { placeholderLedger: join(blocker, 'placeholders') }),
      }),
    )
    expect(run.stdout).toBe('protected\n')
    expect(existsSync(join(work, '.claude'))).toBe(false)
  })
})
