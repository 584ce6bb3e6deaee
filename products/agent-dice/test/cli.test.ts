import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { beforeAll, describe, expect, it } from 'vitest'
import { USAGE } from '../src/cli/usage.ts'
import { cleanEnv, ensureBuilt, PACKAGE_ROOT, runNode, slot, tempDir } from './helpers.ts'

const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'schema', 'cli-output.json'), 'utf8'))
const validate = new Ajv({ allErrors: true }).compile(schema)
const CLI = 'bin/agent-dice.js'

interface World {
  home: string
  cwd: string
  base: string
  env: NodeJS.ProcessEnv
}

/** A fake home with slots and a Claude-style transcript of 15 prompts for session `sess-1`. */
function world(options: { slots?: boolean } = {}): World {
  const home = tempDir()
  const cwd = join(tempDir(), 'my.project')
  mkdirSync(cwd)
  const base = join(home, '.claude', 'dice')
  mkdirSync(base, { recursive: true })
  if (options.slots !== false) {
    writeFileSync(
      join(base, 'slots.json'),
      JSON.stringify(
        {
          reflection: slot({ name: 'reflection', onTrigger: { message: 'Reflect.' } }),
          single1: slot({ name: 'single1', type: 'single', die: 1, target: 1 }),
          fixed: slot({ name: 'fixed', type: 'fixed', die: 6, fixedCount: 2, target: 6, targetMode: 'gte' }),
          bad: { name: 'bad', die: 'x', target: 1, onTrigger: { message: 'm' } },
        },
        null,
        2,
      ),
    )
  }
  const projects = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(projects, { recursive: true })
  const lines: string[] = []
  for (let i = 0; i < 15; i++) {
    lines.push(
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: `prompt ${i}` },
        sessionId: 'sess-1',
      }),
    )
    lines.push(
      JSON.stringify({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      }),
    )
    lines.push(
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result' }] },
        toolUseResult: {},
      }),
    )
  }
  writeFileSync(join(projects, 'sess-1.jsonl'), lines.join('\n'))
  return { home, cwd, base, env: cleanEnv({ HOME: home, PWD: cwd }) }
}

interface Case {
  argv: string[]
  code: number
  stdout?: string | RegExp
  stderr?: string | RegExp
  errorCode?: string
  setup?: (w: World) => void
  env?: (w: World) => NodeJS.ProcessEnv
  input?: string
  check?: (w: World, json: Record<string, unknown> | undefined) => void
}

const usage = `${USAGE}\n`
const STATUS_REFLECTION = [
  'Slot: reflection (accumulator)',
  '  Dice count:      2',
  '  Current depth:   15',
  '  Since trigger:   15',
  '  Probability:     9.75%',
  '  Next die at:     depth 21',
  '',
].join('\n')

const CASES: Record<string, Case> = {
  'no command': { argv: [], code: 0, stdout: usage, stderr: '' },
  help: { argv: ['help'], code: 0, stdout: usage },
  '--help': { argv: ['--help'], code: 0, stdout: usage },
  '-h': { argv: ['-h'], code: 0, stdout: usage },
  register: {
    argv: ['register', 'x'],
    code: 0,
    stdout: 'Registered: x (accumulator, d20, target=20 exact)\n',
    check: (w) =>
      expect(JSON.parse(readFileSync(join(w.base, 'slots.json'), 'utf8')).x.onTrigger.message).toBe(
        'Dice trigger: x',
      ),
  },
  'register with every option': {
    argv: [
      'register',
      'y',
      '--die',
      '6',
      '--target',
      '2',
      '--target-mode',
      'lte',
      '--type',
      'fixed',
      '--accumulation-rate',
      '3',
      '--max-dice',
      '9',
      '--fixed-count',
      '4',
      '--cooldown',
      'none',
      '--no-clear-on-start',
      '--no-reset-on-trigger',
      '--no-flavor',
      '--message',
      '-x',
    ],
    code: 0,
    stdout: 'Registered: y (fixed, d6, target=2 lte)\n',
    check: (w) =>
      expect(JSON.parse(readFileSync(join(w.base, 'slots.json'), 'utf8')).y).toEqual({
        targetMode: 'lte',
        type: 'fixed',
        accumulationRate: 3,
        maxDice: 9,
        fixedCount: 4,
        cooldown: 'none',
        clearOnSessionStart: false,
        resetOnTrigger: false,
        flavor: false,
        name: 'y',
        die: 6,
        target: 2,
        onTrigger: { message: '-x' },
      }),
  },
  'register without a name': {
    argv: ['register'],
    code: 1,
    stderr: 'Error: slot name required\n',
    errorCode: 'usage',
  },
  'register --die 6.5': {
    argv: ['register', 'x', '--die', '6.5'],
    code: 1,
    stderr: 'Error: Invalid die "6.5": must be a decimal integer\n',
    errorCode: 'invalid_config',
  },
  'register --die abc': {
    argv: ['register', 'x', '--die', 'abc'],
    code: 1,
    stderr: 'Error: Invalid die "abc": must be a decimal integer\n',
    errorCode: 'invalid_config',
  },
  'register target above die': {
    argv: ['register', 'x', '--die', '20', '--target', '21'],
    code: 1,
    stderr: 'Error: Invalid target "21": must be an integer from 1 to the die size (20)\n',
    errorCode: 'invalid_config',
    check: (w) => expect(JSON.parse(readFileSync(join(w.base, 'slots.json'), 'utf8')).x).toBeUndefined(),
  },
  'register unknown type': {
    argv: ['register', 'x', '--type', 'pool'],
    code: 1,
    stderr: 'Error: Invalid type "pool": must be one of accumulator, fixed, single\n',
    errorCode: 'invalid_config',
  },
  'register bad name': {
    argv: ['register', 'bad name'],
    code: 1,
    stderr: 'Error: Invalid slot name "bad name": must start with alphanumeric, contain only [a-zA-Z0-9_-]\n',
    errorCode: 'invalid_config',
  },
  'missing flag value': {
    argv: ['register', 'x', '--message'],
    code: 1,
    stderr: 'Error: --message requires a value\n',
    errorCode: 'usage',
  },
  'unknown option': {
    argv: ['register', 'x', '--bogus'],
    code: 1,
    stderr: 'Error: Unknown option: --bogus\n',
    errorCode: 'usage',
  },
  'unexpected argument': {
    argv: ['status', 'reflection', 'extra'],
    code: 1,
    stderr: 'Error: Unexpected argument: extra\n',
    errorCode: 'usage',
  },
  unregister: { argv: ['unregister', 'reflection'], code: 0, stdout: 'Removed slot: reflection\n' },
  'unregister unknown': {
    argv: ['unregister', 'nope'],
    code: 1,
    stderr: 'Slot not found: nope\n',
    errorCode: 'slot_not_found',
  },
  'unregister without a name': {
    argv: ['unregister'],
    code: 1,
    stderr: 'Error: slot name required\n',
    errorCode: 'usage',
  },
  list: {
    argv: ['list'],
    code: 0,
    stdout:
      '  reflection (accumulator, 20-sided, target=20 exact)\n  single1 (single, 1-sided, target=1 exact)\n  fixed (fixed, 6-sided, target=6 gte)\n  bad (invalid: die "x" must be an integer ≥ 1)\n',
  },
  'list empty': {
    argv: ['list'],
    code: 0,
    stdout: 'No slots registered.\n',
    setup: (w) => writeFileSync(join(w.base, 'slots.json'), '{}'),
  },
  status: { argv: ['status', 'reflection'], code: 0, stdout: STATUS_REFLECTION },
  'status of a fixed slot': {
    argv: ['status', 'fixed'],
    code: 0,
    stdout:
      'Slot: fixed (fixed)\n  Dice count:      2\n  Current depth:   0\n  Since trigger:   0\n  Probability:     30.56%\n',
  },
  'status unknown': {
    argv: ['status', 'nope'],
    code: 1,
    stderr: 'Slot not found: nope\n',
    errorCode: 'slot_not_found',
  },
  'status of an invalid slot': {
    argv: ['status', 'bad'],
    code: 1,
    stderr: 'Error: Invalid slot "bad": die "x" must be an integer ≥ 1\n',
    errorCode: 'invalid_config',
  },
  'status never calibrates (R27 fix 8)': {
    argv: ['status', 'reflection', '--session', 'sess-1'],
    code: 0,
    stdout: /Current depth: {3}15\n {2}Since trigger: {3}0\n/,
    setup: (w) => {
      mkdirSync(join(w.base, 'state'))
      writeFileSync(
        join(w.base, 'state', 'reflection-sess-1.json'),
        '{\n  "depth_at_last_trigger": -1,\n  "last_reset": "t"\n}',
      )
    },
    check: (w) =>
      expect(readFileSync(join(w.base, 'state', 'reflection-sess-1.json'), 'utf8')).toBe(
        '{\n  "depth_at_last_trigger": -1,\n  "last_reset": "t"\n}',
      ),
  },
  'roll a hit': {
    argv: ['roll', 'single1'],
    code: 0,
    stdout: 'single1: 1d1 = [1] (best: 1, 100%) TRIGGERED!\n',
    check: (w) => expect(readdirSync(w.base)).toEqual(['slots.json']),
  },
  'roll with no dice': {
    argv: ['roll', 'reflection', '--session', 'fresh'],
    code: 0,
    stdout: 'reflection: 0 dice (no roll)\n',
  },
  'roll with dice': {
    argv: ['roll', 'reflection'],
    code: 0,
    stdout: /^reflection: 2d20 = \[\d+, \d+\] \(best: \d+, 9\.75%\)( TRIGGERED!)?\n$/,
  },
  'roll unknown': {
    argv: ['roll', 'nope'],
    code: 1,
    stderr: 'Slot not found: nope\n',
    errorCode: 'slot_not_found',
  },
  reset: {
    argv: ['reset', 'reflection'],
    code: 0,
    stdout: 'Reset slot: reflection\n',
    check: (w) =>
      expect(
        JSON.parse(readFileSync(join(w.base, 'state', 'reflection-sess-1.json'), 'utf8'))
          .depth_at_last_trigger,
      ).toBe(15),
  },
  'reset unknown': {
    argv: ['reset', 'nope'],
    code: 1,
    stderr: 'Slot not found: nope\n',
    errorCode: 'slot_not_found',
  },
  clear: {
    argv: ['clear', 'reflection', '--session', 'other.1'],
    code: 0,
    stdout: 'Cleared slot: reflection\n',
    check: (w) =>
      expect(
        JSON.parse(readFileSync(join(w.base, 'state', 'reflection-other.1.json'), 'utf8'))
          .depth_at_last_trigger,
      ).toBe(0),
  },
  'clear unknown': {
    argv: ['clear', 'nope'],
    code: 1,
    stderr: 'Slot not found: nope\n',
    errorCode: 'slot_not_found',
  },
  'bad session': {
    argv: ['clear', 'reflection', '--session', '../x'],
    code: 1,
    stderr: /^Error: Invalid session id "\.\.\/x"/,
    errorCode: 'invalid_config',
  },
  odds: {
    argv: ['odds', 'reflection', '--to', '8'],
    code: 0,
    stdout:
      /depth 6: 0 dice, 0% per turn, 0% cumulative\ndepth 7: 1 dice, 5% per turn, 5% cumulative\ndepth 8: 1 dice, 5% per turn, 9.75% cumulative\n$/,
  },
  'odds bad --to': {
    argv: ['odds', 'reflection', '--to', 'x'],
    code: 1,
    stderr: 'Error: Invalid to "x": must be a decimal integer\n',
    errorCode: 'invalid_config',
  },
  'unknown command': {
    argv: ['frobnicate'],
    code: 1,
    stdout: usage,
    stderr: 'Unknown command: frobnicate\n',
    errorCode: 'unknown_command',
  },
  'session-start stays unknown': {
    argv: ['session-start'],
    code: 1,
    stderr: 'Unknown command: session-start\n',
    errorCode: 'unknown_command',
  },
  'unknown host': {
    argv: ['list'],
    code: 1,
    stderr: 'Error: Unknown AGENT_DICE_HOST "gemini" (expected claude, codex or tack)\n',
    errorCode: 'invalid_config',
    env: (w) => ({ ...w.env, AGENT_DICE_HOST: 'gemini' }),
  },
  'no home': {
    argv: ['list'],
    code: 1,
    stderr: 'Error: Cannot resolve base dir: set AGENT_DICE_BASE or HOME\n',
    errorCode: 'invalid_config',
    env: () => cleanEnv({}),
  },
  install: {
    argv: ['install'],
    code: 0,
    stdout: /^ok {3}Registered Stop and SessionStart hooks in .*settings\.json\n/,
  },
  'check before install': {
    argv: ['check'],
    code: 1,
    stdout: /err {2}.*settings\.json does not exist[\s\S]*Status: errors\n$/,
  },
  'uninstall refusing to purge': {
    argv: ['uninstall', '--purge-data'],
    code: 1,
    stderr: /^Refusing to delete .*\.claude\/dice: not created by agent-dice\n$/,
    errorCode: 'io_error',
  },
  'hook claude-stop': {
    argv: ['hook', 'claude-stop'],
    code: 2,
    input: JSON.stringify({ session_id: 'h1', transcript_path: '/none/h1.jsonl' }),
    stdout: /^fixed: 2d6 = \[\d, \d\] \(best: \d\)\n$|^$/,
    stderr: /^🎲 Nat 1! m\n/,
  },
  'hook unknown': {
    argv: ['hook', 'nope'],
    code: 1,
    stderr: /^Error: Unknown hook "nope"/,
    errorCode: 'usage',
  },
}

const matches = (actual: string, expected: string | RegExp | undefined) => {
  if (expected === undefined) return
  if (typeof expected === 'string') expect(actual).toBe(expected)
  else expect(actual).toMatch(expected)
}

beforeAll(() => ensureBuilt())

describe('R23/R25 the built CLI as a child process, text and --json', () => {
  for (const [title, c] of Object.entries(CASES)) {
    it(`R23 R24 R25 ${title}: \`${c.argv.join(' ')}\``, async () => {
      const text = world()
      c.setup?.(text)
      const t = await runNode(CLI, c.argv, { env: c.env?.(text) ?? text.env, cwd: text.cwd, input: c.input })
      expect(t.code).toBe(c.code)
      matches(t.stdout, c.stdout)
      matches(t.stderr, c.stderr ?? (c.code === 0 ? '' : undefined))
      c.check?.(text, undefined)

      const json = world()
      c.setup?.(json)
      const j = await runNode(CLI, [...c.argv, '--json'], {
        env: c.env?.(json) ?? json.env,
        cwd: json.cwd,
        input: c.input,
      })
      expect(j.code).toBe(c.code)
      expect(j.stderr).toBe('')
      expect(j.stdout.endsWith('\n')).toBe(true)
      expect(j.stdout.trim().split('\n')).toHaveLength(1)
      const out = JSON.parse(j.stdout)
      const valid = validate(out)
      expect(validate.errors ?? []).toEqual([])
      expect(valid).toBe(true)
      if (c.errorCode) {
        expect(out.ok).toBe(false)
        expect(out.error.code).toBe(c.errorCode)
        if (typeof c.stderr === 'string') expect(`${out.error.message}\n`).toBe(c.stderr)
        else expect(`${out.error.message}\n`).toMatch(c.stderr ?? /./)
      } else if (c.code === 0) {
        expect(out.ok).toBe(true)
      }
      c.check?.(json, out)
    })
  }
  it('issue 11.8 a fixed d6 with three dice and no --target: register, status and roll succeed and roll 3d6', async () => {
    const w = world({ slots: false })
    const run = (argv: string[]) => runNode(CLI, argv, { env: w.env, cwd: w.cwd })
    const reg = await run('register fix --type fixed --die 6 --fixed-count 3 --message m'.split(' '))
    expect(reg.stderr).toBe('')
    expect(reg.stdout).toBe('Registered: fix (fixed, d6, target=6 exact)\n')
    expect(reg.code).toBe(0)
    expect(JSON.parse(readFileSync(join(w.base, 'slots.json'), 'utf8')).fix).toMatchObject({
      die: 6,
      target: 6,
    })
    const status = await run(['status', 'fix'])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('fix')
    const roll = await run(['roll', 'fix'])
    expect(roll.code).toBe(0)
    expect(roll.stdout).toMatch(
      /^fix: 3d6 = \[[1-6], [1-6], [1-6]\] \(best: [1-6], 42\.13%\)( TRIGGERED!)?\n$/,
    )
    const d20 = await run(['register', 'twenty'])
    expect(d20.stdout).toBe('Registered: twenty (accumulator, d20, target=20 exact)\n')
    const above = await run(['register', 'bad', '--die', '6', '--target', '7'])
    expect(above.code).toBe(1)
    expect(above.stderr).toBe('Error: Invalid target "7": must be an integer from 1 to the die size (6)\n')
  })
  it('R23 roll writes nothing: the state file mtime is unchanged (R27 fix 8)', async () => {
    const w = world()
    mkdirSync(join(w.base, 'state'))
    const file = join(w.base, 'state', 'reflection-sess-1.json')
    writeFileSync(file, '{\n  "depth_at_last_trigger": -1,\n  "last_reset": "t"\n}')
    const before = statSync(file).mtimeMs
    const r = await runNode(CLI, ['roll', 'reflection'], { env: w.env, cwd: w.cwd })
    expect(r.stdout).toBe('reflection: 0 dice (no roll)\n')
    expect(statSync(file).mtimeMs).toBe(before)
    expect(readFileSync(file, 'utf8')).toContain('-1')
  })
  it('R23 cc-reflection installer replay against cc-dice: status absent fails, register, status present, unregister', async () => {
    const w = world({ slots: false })
    const run = (argv: string[]) => runNode(CLI, argv, { env: w.env, cwd: w.cwd })
    expect((await run(['status', 'reflection'])).code).not.toBe(0)
    const reg = await run([
      'register',
      'reflection',
      '--die',
      '20',
      '--target',
      '20',
      '--type',
      'accumulator',
      '--accumulation-rate',
      '7',
      '--cooldown',
      'per-session',
      '--message',
      'Invoke /reflection before ending. 吾日三省吾身',
    ])
    expect(reg.code).toBe(0)
    expect(readFileSync(join(w.base, 'slots.json'), 'utf8')).toBe(
      JSON.stringify(
        {
          reflection: {
            targetMode: 'exact',
            type: 'accumulator',
            accumulationRate: 7,
            maxDice: 100,
            fixedCount: 1,
            cooldown: 'per-session',
            clearOnSessionStart: true,
            resetOnTrigger: true,
            flavor: true,
            name: 'reflection',
            die: 20,
            target: 20,
            onTrigger: { message: 'Invoke /reflection before ending. 吾日三省吾身' },
          },
        },
        null,
        2,
      ),
    )
    expect((await run(['status', 'reflection'])).code).toBe(0)
    expect((await run(['unregister', 'reflection'])).code).toBe(0)
    expect((await run(['status', 'reflection'])).code).toBe(1)
  })
  it('R13 AGENT_DICE_HOST=codex and tack point the CLI at their bases', async () => {
    const w = world()
    const codex = join(tempDir(), 'codex')
    const tack = join(tempDir(), 'tack')
    await runNode(CLI, ['register', 'c1'], {
      env: { ...w.env, AGENT_DICE_HOST: 'codex', CODEX_HOME: codex },
      cwd: w.cwd,
    })
    await runNode(CLI, ['register', 't1'], {
      env: { ...w.env, AGENT_DICE_HOST: 'tack', TACK_HOME: tack },
      cwd: w.cwd,
    })
    expect(Object.keys(JSON.parse(readFileSync(join(codex, 'dice', 'slots.json'), 'utf8')))).toEqual(['c1'])
    expect(Object.keys(JSON.parse(readFileSync(join(tack, 'dice', 'slots.json'), 'utf8')))).toEqual(['t1'])
    const status = await runNode(CLI, ['status', 't1'], {
      env: { ...w.env, AGENT_DICE_HOST: 'tack', TACK_HOME: tack },
      cwd: w.cwd,
    })
    expect(status.stdout).toContain('  Current depth:   0\n')
  })
})
