// Issue 10 item 8 (the defects a new user hits) and the error half of item 4's result line, through the
// real binary with the `scripted` file provider (AL-21) as the model.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { COMMON_OPTIONS } from '../src/args.ts'
import { jsonLines, runTack, sandbox, scriptedModel, textAnswers, writeJson } from './helpers.ts'

const userText = (stdout: string) =>
  (jsonLines(stdout).find((l) => l.type === 'user/message') as { data: { content: Array<{ text: string }> } })
    .data.content[0].text

describe('issue 10.8: the defects a new user meets', () => {
  test('tack run -p "x" and tack -p "x" send "x"', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, textAnswers('a', 'b'))
    const opts = { env: box.env, cwd: box.workspace }
    const inRun = await runTack(['run', '-p', 'x', '--json', '--model', model], opts)
    expect(inRun.code, inRun.stderr).toBe(0)
    expect(userText(inRun.stdout)).toBe('x')
    const bare = await runTack(['-p', 'x', '--json', '--model', model], opts)
    expect(userText(bare.stdout)).toBe('x')
  })

  test('--cwd naming a missing folder or a file is a one-line usage error', async () => {
    const box = await sandbox()
    const missing = join(box.root, 'nope')
    const r = await runTack(['run', 'x', '--cwd', missing], { env: box.env, cwd: box.root })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`tack: --cwd ${missing}: no such folder (${missing})\n`)
    const file = join(box.root, 'file.txt')
    await writeFile(file, 'x')
    const f = await runTack(['doctor', '--cwd', 'file.txt'], { env: box.env, cwd: box.root })
    expect(f.code).toBe(2)
    expect(f.stderr).toBe(`tack: --cwd file.txt: not a folder (${file})\n`)
  })

  test('sessions import: missing file, bad JSON, not an export, an existing id are one line with exit 1; - reads stdin', async () => {
    const box = await sandbox()
    const opts = { env: box.env, cwd: box.workspace }
    const header = { version: 1, id: 'imported-1', createdAt: '2025-01-01T00:00:00.000Z', cwd: box.workspace }
    const file = join(box.root, 'export.jsonl')
    await writeFile(file, `${JSON.stringify({ type: 'session/header', header })}\n`)
    const ok = await runTack(['sessions', 'import', '-'], {
      ...opts,
      input: `${JSON.stringify({ type: 'session/header', header })}\n`,
    })
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toBe('imported-1\n')
    const cases: Array<[string, string, string]> = [
      ['missing', join(box.root, 'none.jsonl'), `tack: ${join(box.root, 'none.jsonl')}: no such file\n`],
      [
        'existing id',
        file,
        `tack: ${file}: session imported-1 is already in the store (tack sessions rm imported-1 first to replace it)\n`,
      ],
    ]
    const bad = join(box.root, 'bad.jsonl')
    await writeFile(bad, `${JSON.stringify({ type: 'session/header', header })}\n{not json\n`)
    const notExport = join(box.root, 'other.jsonl')
    await writeFile(notExport, '{"hello":1}\n')
    for (const [what, path, message] of cases) {
      const r = await runTack(['sessions', 'import', path], opts)
      expect(r.code, what).toBe(1)
      expect(r.stderr, what).toBe(message)
    }
    const r = await runTack(['sessions', 'import', bad], opts)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`^tack: ${bad}:2: not JSON \\(.+\\)\\n$`))
    const o = await runTack(['sessions', 'import', notExport], opts)
    expect(o.code).toBe(1)
    expect(o.stderr).toBe(
      `tack: ${notExport}:1: the first line must be the session header of a jsonl export (tack sessions export ID)\n`,
    )
    // a refused batch of events leaves no half-imported session behind
    const gap = join(box.root, 'gap.jsonl')
    const other = { ...header, id: 'gap-1' }
    await writeFile(
      gap,
      `${JSON.stringify({ type: 'session/header', header: other })}\n${JSON.stringify({ type: 'turn/start', seq: 5, time: 't', data: { turn: 1, trigger: { kind: 'message' } } })}\n`,
    )
    const g = await runTack(['sessions', 'import', gap], opts)
    expect(g.code).toBe(1)
    expect(g.stderr).toMatch(
      /^tack: .*gap\.jsonl: the events were refused, nothing imported: .*SEQ|^tack: .*gap\.jsonl: the events were refused, nothing imported: .*seq/,
    )
    const list = await runTack(['sessions', 'list', '--json'], opts)
    expect((JSON.parse(list.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual(['imported-1'])
  })

  test('sessions show prints each assistant message once, with no line per streamed chunk', async () => {
    const box = await sandbox()
    const answer = 'a streamed answer that arrives in several chunks'
    const model = await scriptedModel(box.root, [{ kind: 'text', text: answer }])
    const run = await runTack(['run', '--json', '--model', model, 'say it'], {
      env: box.env,
      cwd: box.workspace,
    })
    const lines = jsonLines(run.stdout)
    expect(lines.some((l) => l.type === 'assistant/chunk')).toBe(true)
    const id = (lines.at(-1) as { sessionId: string }).sessionId
    const show = await runTack(['sessions', 'show', id], { env: box.env, cwd: box.workspace })
    expect(show.code).toBe(0)
    expect(show.stdout).not.toContain('assistant/chunk')
    expect(show.stdout.split('\n').filter((l) => l.trim() === '')).toEqual(['']) // only the final newline
    expect(show.stdout.split(answer)).toHaveLength(2)
  })

  test('hooks list: agent-dice hooks are skipped (tack rolls natively); project Claude hooks of a trusted workspace run', async () => {
    const box = await sandbox()
    await mkdir(join(box.home, '.claude'), { recursive: true })
    await mkdir(join(box.workspace, '.claude'), { recursive: true })
    const dice = "node '/opt/agent-dice/hooks/agent-dice-claude-stop.js'"
    await writeJson(join(box.home, '.claude', 'settings.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: dice }] }] },
    })
    await writeJson(join(box.workspace, '.claude', 'settings.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project-stop' }] }] },
    })
    const r = await runTack(['hooks', 'list', '--json', '--trust'], { env: box.env, cwd: box.workspace })
    const rows = JSON.parse(r.stdout) as Array<{ command: string; willRun: boolean; why?: string }>
    expect(rows.find((x) => x.command === dice)).toMatchObject({
      willRun: false,
      why: expect.stringContaining('agent-dice runs natively in tack'),
    })
    expect(rows.find((x) => x.command === 'echo project-stop')).toMatchObject({ willRun: true })
    const text = await runTack(['hooks', 'list', '--trust'], { env: box.env, cwd: box.workspace })
    expect(text.stdout).toMatch(/Stop\s+\*\s+skipped\s+node '\/opt\/agent-dice/)
    // with the dice plugin off, tack does run agent-dice's own hook
    const off = join(box.root, 'off.yml')
    await writeFile(off, 'plugins:\n  dice: false\n')
    const offRows = JSON.parse(
      (await runTack(['hooks', 'list', '--json', '--config', off], { env: box.env, cwd: box.workspace }))
        .stdout,
    ) as Array<{ command: string; willRun: boolean }>
    expect(offRows.find((x) => x.command === dice)?.willRun).toBe(true)
  })

  test('messages name the real $TACK_HOME, never ~/.tack', async () => {
    const box = await sandbox()
    const opts = { env: box.env, cwd: box.workspace }
    const none = await runTack(['run', 'x'], opts)
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(join(box.tackHome, 'config.yml'))
    expect(none.stderr).not.toContain('~/.tack')
    const keyless = await runTack(['run', 'x', '--model', 'openai/gpt-4.1'], opts)
    expect(keyless.stderr).toContain(
      `OPENAI_API_KEY is not set: export it or add it to ${join(box.tackHome, '.env')}`,
    )
    const doctor = await runTack(['doctor'], opts)
    expect(doctor.stdout).toContain(join(box.tackHome, 'config.yml'))
    expect(doctor.stdout).not.toContain('~/.tack')
  })

  test('--help lists every command and flag, and the tools modes', async () => {
    const box = await sandbox()
    const help = (await runTack(['--help'], { env: box.env, cwd: box.workspace })).stdout
    for (const flag of Object.keys(COMMON_OPTIONS)) expect(help, flag).toContain(`--${flag}`)
    for (const [flag, spec] of Object.entries(COMMON_OPTIONS))
      if ('short' in spec) expect(help, flag).toContain(`-${spec.short}, --${flag}`)
    for (const command of [
      'tack run',
      'tack sessions list',
      'tack sessions show',
      'tack sessions export',
      'tack sessions fork',
      'tack sessions rm',
      'tack sessions import',
      'tack hooks list',
      'tack hooks trust',
      'tack trust',
      'tack dice',
      'tack doctor',
      'tack --version',
    ])
      expect(help, command).toContain(command)
    expect(help).toMatch(/--tools-mode MODE +native \(default\), code .* or both;\n +also TACK_TOOLS_MODE/)
  })
})

describe('issue 10.4: the result line of a run that fails or is refused', () => {
  test('an error sets isError with the error code; a refused tool call is listed as a permission denial', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A' } }] },
      { kind: 'error', message: 'the provider fell over', code: 'PROVIDER_DOWN' },
    ])
    const r = await runTack(
      ['run', '--json', '--permission-mode', 'read-only', '--model', model, 'write a'],
      {
        env: box.env,
        cwd: box.workspace,
      },
    )
    expect(r.code).toBe(1)
    const lines = jsonLines(r.stdout)
    expect(lines[0]).toMatchObject({ type: 'start', permissionMode: 'read-only', version: 2 })
    const result = lines.at(-1) as Record<string, unknown>
    expect(result).toMatchObject({
      type: 'result',
      isError: true,
      error: { code: 'PROVIDER_DOWN', message: expect.stringContaining('the provider fell over') },
      turns: 1,
      steps: 2,
      permissionDenials: [{ tool: 'write', arguments: JSON.stringify({ file_path: 'a.txt', content: 'A' }) }],
    })
    // the scripted model has no price: no cost rather than a made-up one
    expect(result.costUsd).toBeUndefined()
  })

  test('without a model, tack run "/help" and the other commands that need none work; a prompt still says how to set one', async () => {
    const box = await sandbox() // no key in the environment, no config: no model
    const opts = { env: box.env, cwd: box.workspace }
    const help = await runTack(['run', '/help'], opts)
    expect(help, help.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toMatch(/^\/model \[provider\/model\] +Show or switch the model/m)
    expect((await runTack(['run', '/model'], opts)).stdout).toBe(
      'model: none configured (tack doctor says how to set one)\n',
    )
    expect((await runTack(['run', '/cost'], opts)).stdout).toBe(
      'no model requests yet (no model configured)\n',
    )
    for (const needsModel of ['hello', '/compact', '/no-such-command']) {
      const r = await runTack(['run', needsModel], opts)
      expect(r.code, needsModel).toBe(2)
      expect(r.stderr).toMatch(/^tack: no model configured: set DEEPSEEK_API_KEY/)
    }
    const left = await runTack(['sessions', 'list', '--json'], opts)
    expect(JSON.parse(left.stdout)).toEqual([]) // neither the commands nor the refused prompts left a session
  })
})
