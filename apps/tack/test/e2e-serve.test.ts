// `tack serve` through the real binary (95-fleet.md F5, docs/decisions/0360-web-view.md): a session a
// `tack run` stored in the SQLite file is served from that file by another process, projected as the TUI
// projects it (the edit's applied hunk); a non-loopback address requires the token, generated and printed
// once or taken from $TACK_SERVE_TOKEN (never printed); bad flags and config are one line, exit 2.
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { outcomeOf, runTack, type Sandbox, sandbox, scriptedModel, TACK_BIN } from './helpers.ts'

interface Serving {
  readonly child: ChildProcess
  /** The first line tack serve printed on stdout. */
  readonly line: string
  readonly stderr: () => string
  stop(): Promise<number | null>
}

/** Starts `tack serve …args` in the box and waits for the address it prints. */
async function serve(box: Sandbox, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Serving> {
  const child = spawn(process.execPath, [TACK_BIN, 'serve', ...args], {
    env: { ...box.env, ...env },
    cwd: box.workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const outcome = outcomeOf(child)
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '')
    })
    child.on('exit', () => reject(new Error(`tack serve exited: ${stderr}`)))
  })
  return {
    child,
    line,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM')
      return (await outcome).code
    },
  }
}

const addressOf = (line: string) => new URL(/http:\/\/\S+/.exec(line)?.[0] ?? 'http://invalid/')

async function recordedBox(): Promise<{ box: Sandbox; id: string }> {
  const box = await sandbox()
  await writeFile(join(box.workspace, 'a.txt'), 'one\ntwo\nthree\n')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'a.txt' } }] },
    {
      kind: 'tool-calls',
      calls: [{ name: 'edit', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }],
    },
    { kind: 'text', text: 'done' },
  ])
  const run = await runTack(['run', '--model', model, '--permission-mode', 'yolo', 'change two'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(run.code, run.stderr).toBe(0)
  const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
  const [session] = JSON.parse(list.stdout) as Array<{ id: string }>
  return { box, id: session?.id ?? '' }
}

test('serves the stored session on loopback: listed, and its edit card carries the applied hunk', async () => {
  const { box, id } = await recordedBox()
  const served = await serve(box, ['--port', '0'])
  try {
    const url = addressOf(served.line)
    expect(url.hostname).toBe('127.0.0.1')
    expect(served.line).not.toContain('token')
    const list = (await (await fetch(new URL('/api/sessions', url))).json()) as Array<{ id: string }>
    expect(list.map((s) => s.id)).toEqual([id])
    const page = (await (await fetch(new URL(`/api/sessions/${id}`, url))).json()) as {
      entries: Array<{ kind: string; name?: string; diff?: { hunks: Array<{ lines: string[] }> } }>
    }
    const edit = page.entries.find((e) => e.name === 'edit')
    expect(edit?.diff?.hunks[0]?.lines).toEqual([' one', '-two', '+TWO', ' three'])
    expect(served.stderr()).toContain('jobs are not connected')
  } finally {
    expect(await served.stop()).toBe(0)
  }
})

test('on 0.0.0.0 a token is generated and printed once in the address; requests without it are refused', async () => {
  const box = await sandbox()
  const served = await serve(box, ['--host', '0.0.0.0', '--port', '0'])
  try {
    const printed = addressOf(served.line)
    const token = printed.searchParams.get('token') ?? ''
    expect(token.length).toBeGreaterThanOrEqual(40)
    const base = `http://127.0.0.1:${printed.port}`
    expect((await fetch(`${base}/api/sessions`)).status).toBe(401)
    const ok = await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })
    expect(ok.status).toBe(200)
    expect(served.stderr()).not.toContain(token)
  } finally {
    await served.stop()
  }
})

test('a token from $TACK_SERVE_TOKEN is used and never printed', async () => {
  const box = await sandbox()
  const token = 'a-token-the-person-chose-0123456789'
  const served = await serve(box, ['--host', '0.0.0.0', '--port', '0'], { TACK_SERVE_TOKEN: token })
  try {
    const printed = addressOf(served.line)
    expect(served.line).not.toContain(token)
    const base = `http://127.0.0.1:${printed.port}`
    expect((await fetch(`${base}/api/sessions`, { headers: { authorization: 'Bearer guess' } })).status).toBe(
      401,
    )
    expect(
      (await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200)
    expect(served.stderr()).toContain('TACK_SERVE_TOKEN')
    expect(served.stderr()).not.toContain(token)
  } finally {
    await served.stop()
  }
})

test('plugins.serve.port is the default port; --port wins over it', async () => {
  const box = await sandbox()
  const free = await freePort()
  const config = join(box.root, 'serve.yml')
  await writeFile(config, `plugins:\n  serve:\n    port: ${free}\n`)
  const served = await serve(box, ['--config', config])
  try {
    expect(addressOf(served.line).port).toBe(String(free))
  } finally {
    await served.stop()
  }
  const flagged = await serve(box, ['--config', config, '--port', '0'])
  try {
    expect(addressOf(flagged.line).port).not.toBe(String(free))
  } finally {
    await flagged.stop()
  }
})

test('a bad --port or plugins.serve value is one line naming it, exit 2', async () => {
  const box = await sandbox()
  const flag = await runTack(['serve', '--port', '99999'], { env: box.env, cwd: box.workspace })
  expect(flag.code).toBe(2)
  expect(flag.stderr).toContain('--port must be an integer from 0 to 65535')
  const config = join(box.root, 'bad.yml')
  await writeFile(config, 'plugins:\n  serve:\n    pollMs: 1\n')
  const bad = await runTack(['serve', '--config', config], { env: box.env, cwd: box.workspace })
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('plugins.serve.pollMs')
  expect(bad.stderr).toContain('bad.yml')
  const help = await runTack(['serve', '--help'], { env: box.env, cwd: box.workspace })
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('usage: tack serve')
})

test('a port in use is one line saying so, exit 1', async () => {
  const box = await sandbox()
  const first = await serve(box, ['--port', '0'])
  try {
    const taken = addressOf(first.line).port
    const second = await runTack(['serve', '--port', taken], { env: box.env, cwd: box.workspace })
    expect(second.code).toBe(1)
    expect(second.stderr).toBe(
      `tack: serve: 127.0.0.1:${taken} is in use (--port N picks another, 0 any free one)\n`,
    )
  } finally {
    await first.stop()
  }
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
