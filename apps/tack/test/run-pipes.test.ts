// Issue 10 item 5 through the real binary: piped stdin is context for a given task and the task when none
// is given; stdin that is not piped (/dev/null, a terminal) is never read; a reader that leaves
// (`| head -1`) ends tack quietly — exit 141, the session stored, its turn closed.
import { spawn, spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, scriptedModel, TACK_BIN, textAnswers } from './helpers.ts'

type Prompt = { data: { content: Array<{ type: string; text: string }> } }
const promptOf = (stdout: string) => jsonLines(stdout).find((l) => l.type === 'user/message') as Prompt

describe('stdin and stdout as pipes (issue 10 item 5)', () => {
  test('cat log | tack run "task": the prompt holds the task, then stdin as a fenced block', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('one error'))
    const log = 'line 1 ok\nline 2 ERROR disk full\n'
    const r = await runTack(['run', '--json', '--model', model, 'summarize this'], {
      env: box.env,
      cwd: box.workspace,
      input: log,
    })
    expect(r.code).toBe(0)
    expect(promptOf(r.stdout).data.content).toEqual([
      { type: 'text', text: 'summarize this' },
      { type: 'text', text: `<stdin>\n${log}</stdin>` },
    ])
  })

  test('no task and piped stdin: stdin is the task; empty stdin with a task adds nothing; neither is an error', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('first', 'second'))
    const piped = await runTack(['run', '--json', '--model', model], {
      env: box.env,
      cwd: box.workspace,
      input: 'fix the typo in README\n',
    })
    expect(piped.code).toBe(0)
    expect(promptOf(piped.stdout).data.content).toEqual([{ type: 'text', text: 'fix the typo in README\n' }])
    const empty = await runTack(['run', '--json', '--model', model, 'just this'], {
      env: box.env,
      cwd: box.workspace,
      input: '',
    })
    expect(promptOf(empty.stdout).data.content).toEqual([{ type: 'text', text: 'just this' }])
    const none = await runTack(['run', '--model', model], { env: box.env, cwd: box.workspace, input: '  \n' })
    expect(none.code).toBe(2)
    expect(none.stderr).toBe(
      'tack: tack run needs a task: tack run "fix the failing test" (or pipe it in: cat task.md | tack run)\n',
    )
  })

  test('stdin from /dev/null is not read; binary stdin is refused in one line', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('no stdin needed'))
    const r = spawnSync(process.execPath, [TACK_BIN, 'run', '--model', model, 'hello'], {
      env: box.env,
      cwd: box.workspace,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('no stdin needed\n')
    const binary = await runTack(['run', '--model', model, 'look'], {
      env: box.env,
      cwd: box.workspace,
      input: 'PK\u0003\u0004\u0000\u0000',
    })
    expect(binary.code).toBe(2)
    expect(binary.stderr).toBe(
      'tack: stdin holds binary data (a NUL byte); tack run passes piped stdin to the model as text\n',
    )
  })

  test('tack run --json | head -1: exit 141, no stack trace, the session stored with its turn closed', async () => {
    const box = await sandbox()
    // the first tool call takes a second, so head has left before tack writes its next line
    const model = await scriptedModel(box.root, [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 1; echo one' } }] },
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 1; echo two' } }] },
      { kind: 'text', text: 'done' },
    ])
    const status = join(box.root, 'status')
    const script = `set -o pipefail; "$NODE" "$TACK" run --json --model "$MODEL" go 2>"$ERR" </dev/null | head -1 >"$OUT"; echo "\${PIPESTATUS[0]}" >"$STATUS"`
    const env = {
      ...box.env,
      NODE: process.execPath,
      TACK: TACK_BIN,
      MODEL: model,
      ERR: join(box.root, 'err'),
      OUT: join(box.root, 'out'),
      STATUS: status,
    }
    await new Promise<void>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], { env, cwd: box.workspace, stdio: 'ignore' })
      child.on('error', reject)
      child.on('close', () => resolve())
    })
    expect((await readFile(status, 'utf8')).trim()).toBe('141')
    expect(await readFile(join(box.root, 'err'), 'utf8')).toBe('')
    expect(jsonLines(await readFile(join(box.root, 'out'), 'utf8'))).toHaveLength(1)

    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
    const [session] = JSON.parse(list.stdout) as Array<{ id: string }>
    const exported = await runTack(['sessions', 'export', session.id, '--format', 'jsonl'], {
      env: box.env,
      cwd: box.workspace,
    })
    const events = jsonLines(exported.stdout)
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'aborted' } } })
    // the second command never ran: the turn was cancelled when the reader left
    expect(exported.stdout).not.toContain('echo two"')
  })
})
