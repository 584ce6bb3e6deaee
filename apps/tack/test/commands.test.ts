// The CLI's commands through the real binary, with the `scripted` file provider (AL-21) as the model.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, scriptedModel, textAnswers, writeJson } from './helpers.ts'

describe('tack run variants', () => {
  test('80-cli §2: -p, a task read from stdin with "-", --cwd and --no-session', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('first', 'second'))
    const p = await runTack(['-p', 'hello', '--model', model, '--no-session'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(p.code).toBe(0)
    expect(p.stdout).toBe('first\n')
    expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(false)
    const stdin = await runTack(['run', '-', '--model', model, '--cwd', box.workspace, '--json'], {
      env: box.env,
      cwd: box.root,
      input: 'a task from stdin',
    })
    expect(stdin.code).toBe(0)
    const lines = jsonLines(stdin.stdout)
    const prompt = lines.find((l) => l.type === 'user/message') as {
      data: { content: Array<{ text: string }> }
    }
    expect(prompt.data.content[0].text).toBe('a task from stdin')
    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.root })
    const sessions = JSON.parse(list.stdout) as Array<{ cwd: string }>
    expect(sessions).toHaveLength(1)
    expect(sessions[0].cwd).toBe(box.workspace)
  })

  test('80-cli §2: a turn that does not complete exits 1 and says why on stderr', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      { kind: 'error', message: 'the provider fell over', code: 'PROVIDER_DOWN' },
    ])
    const r = await runTack(['run', 'x', '--model', model], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('PROVIDER_DOWN')
    expect(r.stderr).toContain('the provider fell over')
  })

  test('80-cli §2: an unknown flag or command is a usage error (exit 2)', async () => {
    const box = await sandbox()
    expect((await runTack(['run', '--frobnicate', 'x'], { env: box.env, cwd: box.workspace })).code).toBe(2)
    const r = await runTack(['explode'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command "explode"')
  })

  test('a bad flag is one line of tack naming it and pointing at the command help (exit 2), which exists', async () => {
    const box = await sandbox()
    const cases: [string[], string][] = [
      [['run', '--foo', 'x'], 'tack run: unknown flag --foo (see tack run --help)'],
      [['sessions', 'list', '-x'], 'tack sessions: unknown flag -x (see tack sessions --help)'],
      [
        ['sessions', 'fork', 'abc', '--at', '-1'],
        'tack sessions: --at needs a value; one that starts with "-" is written --at=-1 (see tack sessions --help)',
      ],
      [['run', '--json=3', 'x'], 'tack run: --json takes no value (see tack run --help)'],
      [['--model', 'm', 'trust', '--list=1'], 'tack trust: --list takes no value (see tack trust --help)'],
      [['run', 'x', '--model'], 'tack run: --model needs a value (see tack run --help)'],
      [['-p', 'x', '--nope'], 'tack run: unknown flag --nope (see tack run --help)'],
      [['--nope'], 'unknown flag --nope (see tack --help)'],
    ]
    for (const [args, line] of cases) {
      const r = await runTack(args, { env: box.env, cwd: box.workspace })
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 2, stderr: `tack: ${line}\n` })
    }
    for (const args of [
      ['run', '--help'],
      ['sessions', 'fork', '-h'],
    ]) {
      const help = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(help.code).toBe(0)
      expect(help.stdout).toContain(`tack ${args[0]}`)
    }
    // a bad --model is the person's typing: the error names the flag (issue 26)
    for (const args of [
      ['run', '--model', 'bogus', 'x'],
      ['--model', 'foo/', 'sessions', 'list'],
    ]) {
      const r = await runTack(args, { env: box.env, cwd: box.workspace })
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 2,
        stderr: `tack: --model: must be provider/model, e.g. deepseek/deepseek-chat (got "${args[args.indexOf('--model') + 1]}")\n`,
      })
    }
    // `tack sessions --help` is the sessions help, not the whole list (issue 26)
    for (const args of [
      ['sessions', '--help'],
      ['sessions', 'list', '-h'],
    ]) {
      const help = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/^tack sessions — /)
      expect(help.stdout).toContain('tack sessions fork <id> [--at SEQ]')
      expect(help.stdout).not.toContain('tack acp')
    }
    // after `--` a "--help" is the task's text, not a request for help
    const task = await runTack(['run', '--model', 'nope/x', '--', '--help'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(task.stdout).not.toContain('Usage:')
  })
})

describe('tack sessions', () => {
  test('80-cli §2: show, fork at a turn boundary (refused inside a turn), markdown export, rm', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A\n' } }] },
      { kind: 'text', text: 'wrote a.txt' },
    ])
    const run = await runTack(['run', '--json', '--model', model, 'write a'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(0)
    const id = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
    const show = await runTack(['sessions', 'show', id], { env: box.env, cwd: box.workspace })
    expect(show.stdout).toMatch(/tool\/call\s+write/)
    const events = jsonLines(run.stdout).filter((l) => l.type !== 'result' && l.type !== 'start')
    const midTurn = (events.find((e) => e.type === 'tool/call') as { seq: number }).seq
    const bad = await runTack(['sessions', 'fork', id, '--at', String(midTurn)], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(bad.code).toBe(1)
    // the refusal lists where a fork may cut: the turn's start and the end (issue 26)
    const end = events.length
    expect(bad.stderr).toBe(
      `tack: BAD_FORK_POINT: fork point ${midTurn} is inside a turn; a fork cuts at a turn's start or the end: 0 (before turn 1), ${end} (the end)\n`,
    )
    const fork = await runTack(['sessions', 'fork', id], { env: box.env, cwd: box.workspace })
    expect(fork.code).toBe(0)
    const child = fork.stdout.trim()
    expect(child).not.toBe(id)
    const exported = jsonLines(
      (await runTack(['sessions', 'export', child], { env: box.env, cwd: box.workspace })).stdout,
    )
    expect(exported[0]).toMatchObject({ header: { parentSession: id, seedLength: events.length } })
    expect(exported.slice(1).map((e) => e.type)).toEqual(events.map((e) => e.type))
    const md = await runTack(['sessions', 'export', id, '--format', 'markdown'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(md.stdout).toContain('## User')
    expect(md.stdout).toContain('write a')
    expect(md.stdout).toContain('### Tool call `write`')
    const claude = await runTack(['sessions', 'export', id, '--format', 'claude-transcript'], {
      env: box.env,
      cwd: box.workspace,
    })
    const firstLine = JSON.parse(claude.stdout.split('\n')[0]) as {
      type: string
      message: { content: unknown }
    }
    expect(firstLine.type).toBe('user')
    expect(firstLine.message.content).toBe('write a')
    expect(claude.stderr).toBe('')
    // 0011: the tool_use block carries the name the write tool declares for Claude Code.
    const toolUse = claude.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => (JSON.parse(line) as { message?: { content?: unknown } }).message?.content ?? [])
      .find((block: { type?: string }) => block.type === 'tool_use') as { name: string } | undefined
    expect(toolUse?.name).toBe('Write')
    expect((await runTack(['sessions', 'rm', child], { env: box.env, cwd: box.workspace })).code).toBe(0)
    const after = await runTack(['sessions', 'show', child], { env: box.env, cwd: box.workspace })
    expect(after.code).toBe(1)
    expect(after.stderr).toBe(`tack: no session "${child}" (tack sessions list shows them)\n`)
  })
})

describe('tack doctor and tack dice', () => {
  test('80-cli §1.3: doctor with no model exits 1 with a one-line fix; with a scripted model it is all good', async () => {
    const box = await sandbox()
    const bad = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toMatch(/problems:\n\s+- no model configured/)
    const model = await scriptedModel(box.root, [])
    const good = await runTack(['doctor', '--model', model], { env: box.env, cwd: box.workspace })
    expect(good.stdout).toContain('session store')
    expect(good.code).toBe(0)
  })

  test('issue 5: tack dice runs the agent-dice CLI against $TACK_HOME/dice', async () => {
    const box = await sandbox()
    const reg = await runTack(['dice', 'register', 'reflect', '--die', '20', '--target', '20'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(reg.code).toBe(0)
    expect(reg.stdout).toContain('Registered: reflect')
    const slots = JSON.parse(readFileSync(join(box.tackHome, 'dice', 'slots.json'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(Object.keys(slots)).toContain('reflect')
    const list = await runTack(['dice', 'list'], { env: box.env, cwd: box.workspace })
    expect(list.stdout).toContain('reflect')
  })

  test('issue 26: tack dice names itself `tack dice` in its usage, not agent-dice', async () => {
    const box = await sandbox()
    for (const argv of [['dice'], ['dice', '--help'], ['dice', 'nonsense']]) {
      const result = await runTack(argv, { env: box.env, cwd: box.workspace })
      expect(result.stdout).toMatch(/^Usage: tack dice <command> \[options\]\n/)
      expect(result.stdout).not.toContain('agent-dice <command>')
    }
  })

  test('issue 13: tack state runs the agent-state readers over <tack home>/agent-state', async () => {
    const box = await sandbox()
    const now = Date.now()
    const snapshot = {
      schema: 1,
      session_id: 'tack-state-0001',
      host: 'tack',
      version: '0.1.0',
      cwd: box.workspace,
      session_started_ms: now - 1_000,
      state: 'permission',
      tool: 'bash',
      state_since_ms: now - 1_000,
      heartbeat_ms: now,
      heartbeat_interval_ms: 30_000,
      signals: {},
    }
    await mkdir(join(box.tackHome, 'agent-state'), { recursive: true })
    await writeJson(join(box.tackHome, 'agent-state', 'tack-state-0001.json'), snapshot)
    const env = { ...box.env, AGENT_STATE_DIR: '' }
    const status = await runTack(['state', 'status', '--json'], { env, cwd: box.workspace })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout).sessions).toMatchObject([
      { session_id: 'tack-state-0001', liveness: 'live' },
    ])
    const tmux = await runTack(['state', 'tmux', '--cwd', box.workspace], { env, cwd: box.workspace })
    expect(tmux.stdout).toBe('perm:1\n')
    const bad = await runTack(['state', 'watch', '--interval', '5'], { env, cwd: box.workspace })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--interval takes a whole number from 200 to 60000')
  })

  test('0015: with a relative TACK_HOME, tack state reads the folder a run in the same folder writes to', async () => {
    const box = await sandbox()
    const snapshot = {
      schema: 1,
      session_id: 'tack-state-rel',
      host: 'tack',
      version: '0.1.0',
      cwd: box.workspace,
      session_started_ms: Date.now() - 1_000,
      state: 'idle',
      state_since_ms: Date.now() - 1_000,
      heartbeat_ms: Date.now(),
      heartbeat_interval_ms: 30_000,
      signals: {},
    }
    await mkdir(join(box.workspace, 'rel-home', 'agent-state'), { recursive: true })
    await writeJson(join(box.workspace, 'rel-home', 'agent-state', 'tack-state-rel.json'), snapshot)
    const env = { ...box.env, AGENT_STATE_DIR: '', TACK_HOME: 'rel-home' }
    const status = await runTack(['state', 'status', '--json'], { env, cwd: box.workspace })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout).sessions).toMatchObject([{ session_id: 'tack-state-rel' }])
  })
})

test('80-cli §3: a profile from the project config applies with --profile', async () => {
  const box = await sandbox()
  const model = await scriptedModel(box.root, textAnswers('from the profile'))
  const { mkdir } = await import('node:fs/promises')
  await mkdir(join(box.workspace, '.tack'))
  await writeFile(join(box.workspace, '.tack', 'config.yml'), `profiles:\n  quick:\n    model: "${model}"\n`)
  // a scripted model plays a workspace file as the model: only a trusted workspace may choose one (9.1)
  const untrusted = await runTack(['run', '--profile', 'quick', 'x'], { env: box.env, cwd: box.workspace })
  expect(untrusted.stderr).toContain('ignored from')
  expect(untrusted.stderr).toContain('profiles.quick.model')
  await runTack(['trust'], { env: box.env, cwd: box.workspace })
  const r = await runTack(['run', '--profile', 'quick', 'x'], { env: box.env, cwd: box.workspace })
  expect(r.stdout).toBe('from the profile\n')
  const missing = await runTack(['run', '--profile', 'nope', 'x'], { env: box.env, cwd: box.workspace })
  expect(missing.code).toBe(2)
  expect(missing.stderr).toContain('no profile named "nope" (known: quick)')
})

test('P1/P2 decision (0025): the launcher runs the build while the sources have its content; doctor says which and why', async () => {
  const { readFileSync, statSync, utimesSync, writeFileSync } = await import('node:fs')
  const { fileURLToPath } = await import('node:url')
  const { spawnSync } = await import('node:child_process')
  // make sure the build matches the working tree (npm test builds first; a bare vitest run may not)
  spawnSync(process.execPath, [fileURLToPath(new URL('../../../scripts/build.ts', import.meta.url))])
  const box = await sandbox()
  const doctor = (env: NodeJS.ProcessEnv = box.env) => runTack(['doctor'], { env, cwd: box.workspace })
  expect((await doctor()).stdout).toMatch(
    /running\s+built JavaScript, bundled \(\d+ source files match the build\)/,
  )
  const forced = await doctor({ ...box.env, TACK_FROM_SOURCE: '1' })
  expect(forced.stdout).toMatch(/running\s+TypeScript sources \(TACK_FROM_SOURCE=1\)/)
  const source = fileURLToPath(new URL('../src/paths.ts', import.meta.url))
  const original = readFileSync(source)
  const { atime, mtime } = statSync(source)
  try {
    // an mtime moved (a checkout, touch, or a restore through a Date): same content, still the build
    utimesSync(source, atime, new Date(mtime.getTime() + 5000))
    const touched = await doctor()
    expect(touched.stdout).toMatch(
      /running\s+built JavaScript, bundled \(\d+ source files match the build; 1 with a new mtime matched by content\)/,
    )
    // a real edit of the same size: the content hash tells, the sources run, and doctor warns with the fix
    const text = original.toString('utf8')
    const at = text.indexOf('e') // inside the leading comment
    writeFileSync(source, `${text.slice(0, at)}E${text.slice(at + 1)}`)
    const edited = await doctor()
    expect(edited.stdout).toMatch(/running\s+TypeScript sources \(apps\/tack\/src\/paths\.ts changed\)/)
    expect(edited.stdout).toContain('run `npm run build` in the repository')
  } finally {
    writeFileSync(source, original)
    utimesSync(source, atime, mtime)
  }
}, 90_000)

test('SL-19 SL-20 TACK_DEV=1 runs the log invariant checkers inside the real binary', async () => {
  const box = await sandbox({ TACK_DEV: '1' })
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'glob', args: { pattern: '*' } }] },
    { kind: 'text', text: 'checked' },
  ])
  const r = await runTack(['run', '--json', '--model', model, 'look around'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code).toBe(0)
  const result = jsonLines(r.stdout).at(-1) as { reason: { kind: string } }
  expect(result.reason).toEqual({ kind: 'completed' })
  const doctor = await runTack(['doctor', '--model', model], { env: box.env, cwd: box.workspace })
  expect(doctor.stdout).toMatch(/invariants\s+on \(TACK_DEV=1\)/)
})
