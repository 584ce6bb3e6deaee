// Issue 9 item 5 through the real binary: `tack sessions show/export/list` on a session another tack is
// running read it without closing its open turn, and that run still succeeds. The model asks for a
// bash call that waits for a file the test creates only after the readers ran, so the run is
// guaranteed to be mid-turn (inside a tool call) while they read.
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, TACK_BIN } from './helpers.ts'

test('9.5 sessions show/export/list during a run leave the running turn open and the run succeeding', async () => {
  const box = await sandbox()
  const release = join(box.root, 'release')
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([
      {
        kind: 'tool-calls',
        calls: [
          {
            name: 'bash',
            args: {
              command: `for i in $(seq 600); do [ -f '${release}' ] && break; sleep 0.1; done; echo released`,
            },
          },
        ],
      },
      { kind: 'text', text: 'all done' },
    ]),
  )
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'run', '--json', '--model', `scripted/${script}`, 'wait for it'],
    {
      env: box.env,
      cwd: box.workspace,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  try {
    // The bash body runs only after its `tool/call` was flushed (SL-24): the turn is open on disk.
    const deadline = Date.now() + 60_000
    while (!stdout.includes('"type":"tool/call"')) {
      if (Date.now() > deadline) throw new Error(`the run never reached its tool call; stderr: ${stderr}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(0)
    const [{ id }] = JSON.parse(list.stdout) as Array<{ id: string }>

    const show = await runTack(['sessions', 'show', id], { env: box.env, cwd: box.workspace })
    expect(show.stderr).toBe('')
    expect(show.code).toBe(0)
    expect(show.stdout).toContain('tool/call')
    expect(show.stdout).not.toContain('interrupted')
    expect(show.stdout).not.toContain('turn/end')

    const exported = await runTack(['sessions', 'export', id], { env: box.env, cwd: box.workspace })
    expect(exported.code).toBe(0)
    expect(jsonLines(exported.stdout).map((l) => l.type)).not.toContain('turn/end')

    // A second writer is refused, naming the running one, instead of taking the session over.
    const fork = await runTack(['sessions', 'rm', id], { env: box.env, cwd: box.workspace })
    expect(fork.code).toBe(1)
    expect(fork.stderr).toMatch(/^tack: SESSION_BUSY: session .* is in use: another tack process \(pid \d+\)/)
    expect(fork.stderr.trim().split('\n')).toHaveLength(1)

    await writeFile(release, '')
    expect(await exited).toBe(0)
    const result = jsonLines(stdout).at(-1)
    expect(result).toMatchObject({ type: 'result', reason: { kind: 'completed' }, answer: 'all done' })
    expect(stderr).not.toContain('SEQ_CONFLICT')

    const after = await runTack(['sessions', 'show', id], { env: box.env, cwd: box.workspace })
    expect(after.stdout).toContain('{"kind":"completed"}')
    expect(after.stdout).not.toContain('interrupted')
  } finally {
    child.kill('SIGKILL')
  }
}, 120_000)
