// The launcher as a user runs it (`tack`, `npx tack`: the file executed as a program): its first two
// lines are a sh line that starts Node with V8's young generation capped and old-space growth bounded,
// because heap-sizing flags are given when Node starts (docs/decisions/0067-long-session-cost.md,
// docs/decisions/0068-heap-growth-and-step-cost.md). Linux-only
// check of the flag (/proc), as CI runs.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { delimiter, dirname } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { TACK_BIN, sandbox, writeLoopConfig } from './helpers.ts'

/** PATH with this Node first, so the launcher's `node` is the one the tests run on. */
const withThisNode = (path: string | undefined) => [dirname(process.execPath), path ?? ''].join(delimiter)

test('run as a program, tack answers --version and runs on Node with its heap flags', async () => {
  const box = await sandbox()
  const env = { ...box.env, PATH: withThisNode(box.env.PATH) }
  const version = await new Promise<string>((resolve, reject) => {
    const child = spawn(TACK_BIN, ['--version'], { env, cwd: box.workspace })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.on('error', reject)
    child.on('close', () => resolve(out))
  })
  expect(version).toMatch(/^tack \d+\.\d+\.\d+\n$/)

  // A model that never answers keeps the process alive while its command line is read.
  const server = await startLoopbackServer({ script: [{ kind: 'hang' }] })
  const config = await writeLoopConfig(box.root, server.baseUrl)
  const child = spawn(TACK_BIN, ['run', '--config', config, '--model', 'loop/m', 'wait'], {
    env,
    cwd: box.workspace,
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => child.on('exit', resolve))
  try {
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20))
    const argv = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0')
    expect(argv).toContain('--max-semi-space-size=8')
    expect(argv).toContain('--heap-growing-percent=30')
    expect(argv).toContain(TACK_BIN)
  } finally {
    child.kill('SIGTERM')
    await exited
    await server.close()
  }
})
