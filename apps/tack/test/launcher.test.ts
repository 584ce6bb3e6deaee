// The launcher as a user runs it (`tack`, `npx tack`: the file executed as a program): its first two
// lines are a sh line that starts Node with V8's young generation capped (a size fixed when the heap is
// made, docs/decisions/0067-long-session-cost.md). Old space's growth factor is set at run time, only by
// commands that run a session (src/session-heap.ts, docs/decisions/0068-heap-growth-and-step-cost.md):
// on the command line it cost every command's start-up. A run-time V8 flag does not show in the process's
// arguments; what shows that it took is V8's flag tag (`v8.cachedDataVersionTag()`, a hash of every V8
// flag), which tack reports under TACK_DEV=1 and which must equal the tag of a Node started with the flag.
// Linux-only check of the command line (/proc), as CI runs.
import { execFileSync, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { delimiter, dirname } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { SESSION_HEAP_FLAG } from '../src/session-heap.ts'
import {
  outcomeOf,
  type Sandbox,
  sandbox,
  scriptedModel,
  TACK_BIN,
  type TackResult,
  textAnswers,
  writeLoopConfig,
} from './helpers.ts'

/** PATH with this Node first, so the launcher's `node` is the one the tests run on. */
const withThisNode = (path: string | undefined) => [dirname(process.execPath), path ?? ''].join(delimiter)

/** The box's environment for running tack as a program, with TACK_DEV=1 (its report of the heap flag). */
const programEnv = (box: Sandbox, extra: NodeJS.ProcessEnv = {}) => ({
  ...box.env,
  PATH: withThisNode(box.env.PATH),
  TACK_DEV: '1',
  ...extra,
})

/** Runs the launcher itself (through its sh line), as a person's shell does. */
const runProgram = (args: readonly string[], env: NodeJS.ProcessEnv, cwd: string) =>
  runFile(TACK_BIN, args, env, cwd)

function runFile(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<TackResult> {
  return outcomeOf(spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }))
}

/** V8's flag tag of a Node started with these flags. */
const flagTag = (...flags: string[]) =>
  Number(
    execFileSync(process.execPath, [...flags, '-p', 'require("node:v8").cachedDataVersionTag()'], {
      encoding: 'utf8',
    }),
  )

const HEAP_REPORT =
  /tack: dev: heap growth (--heap-growing-percent=30) set at run time \(V8 flag tag (\d+) -> (\d+)\)/

test('run as a program, tack answers --version before main, so with no heap report', async () => {
  const box = await sandbox()
  const r = await runProgram(['--version'], programEnv(box), box.workspace)
  expect(r.stdout).toMatch(/^tack \d+\.\d+\.\d+\n$/)
  expect(r.stderr).toBe('')
})

test('a session run as a program has the semi-space size (capped, and starting at the cap) on its command line and the growth flag set at run time', async () => {
  const box = await sandbox()
  // A model that never answers keeps the process alive while its command line is read.
  const server = await startLoopbackServer({ script: [{ kind: 'hang' }] })
  const config = await writeLoopConfig(box.root, server.baseUrl)
  const child = spawn(TACK_BIN, ['run', '--config', config, '--model', 'loop/m', 'wait'], {
    env: programEnv(box),
    cwd: box.workspace,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  try {
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20))
    const argv = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0')
    expect(argv).toContain('--max-semi-space-size=8')
    // the young generation starts at its cap: no scavenges to grow it before the first request (0327)
    expect(argv).toContain('--min-semi-space-size=8')
    expect(argv).toContain(TACK_BIN)
    // Not on the command line: there it costs every command's start-up (0068).
    expect(argv.some((a) => a.includes('heap-growing'))).toBe(false)
  } finally {
    child.kill('SIGTERM')
    await exited
    await server.close()
  }
  const report = HEAP_REPORT.exec(stderr)
  expect(report, stderr).not.toBeNull()
  const [, flag, before, after] = report ?? []
  expect(flag).toBe(SESSION_HEAP_FLAG)
  // Before: V8's flags as the sh line left them; after: exactly those of a Node started with the flag.
  expect(Number(before)).toBe(flagTag('--max-semi-space-size=8', '--min-semi-space-size=8'))
  expect(Number(after)).toBe(flagTag('--max-semi-space-size=8', '--min-semi-space-size=8', SESSION_HEAP_FLAG))
  expect(Number(after)).not.toBe(Number(before))
})

test('only commands that run a session set the growth flag, and a growth factor the person chose stands', async () => {
  const box = await sandbox()
  const model = await scriptedModel(box.root, textAnswers('done'))
  const printRun = await runProgram(['-p', 'hello', '--model', model], programEnv(box), box.workspace)
  expect(printRun.code).toBe(0)
  expect(printRun.stderr).toMatch(HEAP_REPORT)

  for (const command of [['sessions'], ['doctor'], ['--help']]) {
    const r = await runProgram(command, programEnv(box), box.workspace)
    expect(r.stderr, command.join(' ')).not.toContain('heap growth')
  }

  // Node refuses the flag in NODE_OPTIONS; a person who wants another factor starts node with it.
  const own = await runFile(
    process.execPath,
    [
      '--heap-growing-percent=50',
      TACK_BIN,
      '-p',
      'hello',
      '--model',
      await scriptedModel(box.root, textAnswers('done')),
    ],
    programEnv(box),
    box.workspace,
  )
  expect(own.code).toBe(0)
  expect(own.stderr).toContain(
    'tack: dev: heap growth left as it is (Node was started with --heap-growing-percent=50)',
  )
  expect(own.stderr).not.toMatch(HEAP_REPORT)
})
