// Issue 10 item 3 through the real binary: progress and honesty on stderr. Without a terminal, one line
// per tool call (and per denial, per retry); in a pseudo-terminal (util-linux `script`), one live line
// overwritten in place and erased before the answer; -v diagnostics; a failed turn prints its error and
// no answer; plugin warnings (a failing listener) reach stderr.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runInTerminal, runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

const TOOLS_THEN_ANSWER = [
  { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] },
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'rm notes.txt' } }] },
  { kind: 'text', text: 'The notes say hello.' },
]

const ESC = '\x1b'
const ERASE = '\r\x1b[2K'

/** `tack run --model <scripted> ...args` off a terminal, in a fresh sandbox: its result and stderr's lines. */
async function runScripted(
  script: readonly unknown[],
  args: readonly string[],
  prepare?: (workspace: string) => Promise<void>,
) {
  const box = await sandbox()
  await prepare?.(box.workspace)
  const model = await scriptedModel(box.root, script)
  const r = await runTack(['run', '--model', model, ...args], { env: box.env, cwd: box.workspace })
  return { r, lines: r.stderr.trim().split('\n') }
}

describe('tack run progress on stderr (issue 10 item 3)', () => {
  test('no terminal: one line per tool call, denials named, no carriage returns; stdout is the answer alone', async () => {
    const { r, lines } = await runScripted(
      TOOLS_THEN_ANSWER,
      ['--deny', 'bash:rm', 'what do the notes say?'],
      (ws) => writeFile(join(ws, 'notes.txt'), 'hello\n'),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('The notes say hello.\n')
    expect(lines[0]).toMatch(/^tack: ✓ Read notes\.txt \(\d+ ms\)$/)
    expect(lines[1]).toBe(
      'tack: denied: bash: rm notes.txt — The call to "bash" is denied by the rule {"tool":"bash","command":"rm"}.',
    )
    expect(lines).toHaveLength(2)
    expect(r.stderr).not.toContain('\r')
    expect(r.stderr).not.toContain(ESC) // no colour without a terminal
  })

  test("the answer on a terminal has its control characters written out; piped on, it is the model's text as is", async () => {
    const script = [{ kind: 'text', text: `Done ${ESC}]0;PWNED\x07 here.` }]
    const box = await sandbox({ TERM: 'xterm' })
    const model = await scriptedModel(box.root, script)
    const shown = await runInTerminal(['run', '--model', model, 'go'], { env: box.env, cwd: box.workspace })
    expect(shown.code).toBe(0)
    expect(shown.screen).toContain('Done \\x1b]0;PWNED\\x07 here.')
    expect(shown.screen).not.toContain(`${ESC}]0;PWNED`)
    const { r } = await runScripted(script, ['go'])
    expect(r.stdout).toBe(`Done ${ESC}]0;PWNED\x07 here.\n`)
  })

  test('a multi-line command is marked as such: its first line and how many more, never the first line alone', async () => {
    const script = [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo status\ntouch ran.txt\n' } }] },
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo hi\n\nrm ran.txt\nrm -rf x' } }] },
      { kind: 'text', text: 'Done.' },
    ]
    const { r, lines } = await runScripted(script, ['--permission-mode', 'yolo', '--deny', 'bash:rm', 'go'])
    expect(r.code).toBe(0)
    expect(lines[0]).toMatch(/^tack: ✓ bash: echo status \(\+1 more line\) \((\d+ ms|[\d.]+ s)\)$/)
    expect(lines[1]).toMatch(/^tack: denied: bash: echo hi \(\+2 more lines\) — /)
  })

  test("a subagent's line names its task, and its own tool calls and denials show under it", async () => {
    const script = [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'subagent', args: { description: 'tidy the notes', prompt: 'Tidy the notes folder.' } },
        ],
      },
      // the child's steps (the scripted model answers every request in turn)
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo tidy' } }] },
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'rm -rf notes' } }] },
      { kind: 'text', text: 'The notes are tidy.' },
      { kind: 'text', text: 'Done.' },
    ]
    const { r, lines } = await runScripted(script, ['--deny', 'bash:rm', 'tidy up'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Done.\n')
    expect(lines[0]).toMatch(/^tack: {3}↳ ✓ bash: echo tidy \((\d+ ms|[\d.]+ s)\)$/)
    expect(lines[1]).toMatch(
      /^tack: denied: bash: rm -rf notes \(in the subagent\) — The call to "bash" is denied/,
    )
    expect(lines[2]).toMatch(/^tack: ✓ subagent: tidy the notes \((\d+ ms|[\d.]+ s)\)$/)
    expect(r.stderr).not.toContain('{"description"')
  })

  test('pseudo-terminal: a live line overwritten in place, erased before the answer; NO_COLOR drops colour only', async () => {
    const box = await sandbox({ TERM: 'xterm' })
    await writeFile(join(box.workspace, 'notes.txt'), 'hello\n')
    const run = async (env: NodeJS.ProcessEnv) =>
      runInTerminal(
        ['run', '--model', await scriptedModel(box.root, TOOLS_THEN_ANSWER), '--deny', 'bash:rm', 'notes?'],
        { env, cwd: box.workspace },
      )
    const coloured = await run(box.env)
    expect(coloured.code).toBe(0)
    const screen = coloured.screen
    // the live line shows the model wait and then each tool with its key argument, each drawn over the last
    expect(screen).toContain(`${ERASE}${ESC}[2m… waiting for the model (step 1)`)
    expect(screen).toContain(`${ERASE}▸ Read notes.txt`)
    expect(screen).toContain(`${ERASE}▸ bash: rm notes.txt`)
    // a denial is a permanent line, printed over the erased live line, in yellow
    expect(screen).toContain(`${ERASE}tack: ${ESC}[33mdenied: bash: rm notes.txt`)
    // the answer comes right after the live line was erased, on a clean line of its own; the run's
    // summary follows it (docs/decisions/0310-failures-stay-visible.md)
    expect(screen).toMatch(
      /\r\x1b\[2KThe notes say hello\.\r?\ntack: \x1b\[2m2 tool calls \(1 denied\) · [^\n]*\x1b\[22m\r?\n$/,
    )
    expect(screen).not.toContain('✓ Read') // per-call lines are for logs, not terminals

    const plain = await run({ ...box.env, NO_COLOR: '1' })
    expect(plain.code).toBe(0)
    expect(plain.screen).toContain(`${ERASE}▸ Read notes.txt`)
    expect(plain.screen).toContain(`${ERASE}tack: denied: bash: rm notes.txt`)
    expect(plain.screen.replaceAll(ERASE, '')).not.toContain(ESC)
  })

  test('-v: config files, trust, mode, the model and what serves it, each request with size and timing', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'notes.txt'), 'hello\n')
    const model = await scriptedModel(box.root, [TOOLS_THEN_ANSWER[0], TOOLS_THEN_ANSWER[2]])
    const config = join(box.root, 'extra.yml')
    await writeFile(config, 'plugins:\n  agent: { maxStepsPerTurn: 50 }\n')
    const r = await runTack(['run', '-v', '--config', config, '--model', model, 'notes?'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('The notes say hello.\n')
    expect(r.stderr).toContain(`tack: config files: ${config}\n`)
    expect(r.stderr).toContain(`tack: workspace: ${box.workspace} (not trusted)\n`)
    expect(r.stderr).toContain('tack: permission mode: workspace-write\n')
    expect(r.stderr).toContain(`tack: model: ${model} — scripted file `)
    expect(r.stderr).toMatch(
      /tack: request 1 \(scripted\/.*\): [\d.]+ K?B, 1 message, \d+ tools → tool-calls in \d+ ms/,
    )
    expect(r.stderr).toMatch(
      /tack: request 2 \(scripted\/.*\): [\d.]+ K?B, 3 messages, \d+ tools → stop in \d+ ms/,
    )

    // --json -v: the diagnostics go to stderr, stdout stays pure JSON lines, and no progress lines
    const json = await runTack(
      [
        'run',
        '--json',
        '-v',
        '--model',
        await scriptedModel(box.root, [TOOLS_THEN_ANSWER[0], TOOLS_THEN_ANSWER[2]]),
        'x',
      ],
      { env: box.env, cwd: box.workspace },
    )
    expect(json.code).toBe(0)
    expect(jsonLines(json.stdout).at(-1)?.type).toBe('result')
    expect(json.stderr).toContain('tack: request 2 ')
    expect(json.stderr).not.toContain('Read notes.txt')
  })

  test('a retried request says so with its wait; a failed turn prints its error, never the remark before it', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'notes.txt'), 'hello\n')
    const model = await scriptedModel(box.root, [
      { kind: 'error', message: 'rate limited', status: 429, transient: true },
      {
        kind: 'tool-calls',
        text: 'Let me look at the notes first.',
        calls: [{ name: 'read', args: { file_path: 'notes.txt' } }],
      },
      { kind: 'error', message: 'upstream exploded', status: 400 },
    ])
    const config = join(box.root, 'fast-retry.yml')
    await writeFile(config, 'plugins:\n  llm:\n    retry: { baseDelayMs: 5, maxDelayMs: 10 }\n')
    const r = await runTack(['run', '--config', config, '--model', model, 'notes?'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('') // "Let me look at the notes first." is not an answer
    expect(r.stderr).toMatch(/^tack: model request failed \(rate limited\); attempt 2 in \d+ ms$/m)
    expect(r.stderr).toContain('tack: the turn ended with an error (HTTP_400): upstream exploded')
  })

  test('a plugin listener that throws is reported on stderr, and the run carries on', async () => {
    const box = await sandbox()
    await mkdir(join(box.tackHome, 'plugins'), { recursive: true })
    await writeFile(
      join(box.tackHome, 'plugins', 'faulty.ts'),
      `export default { name: 'faulty', apply(ctx) { ctx.on('agent/status', () => { throw new Error('status listener broke') }) } }\n`,
    )
    const model = await scriptedModel(box.root, textAnswers('still answered'))
    const r = await runTack(['run', '--model', model, 'hi'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('still answered\n')
    expect(r.stderr).toContain('listener on agent/status failed: status listener broke')
  })
})
