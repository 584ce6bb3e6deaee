// A tool no front end has heard of looks right everywhere from its declaration alone
// (docs/decisions/0200-tools-own-their-presentation.md): a user plugin in $TACK_HOME/plugins registers
// `frobnicate`, declaring kind `edit`, its key argument, a location and a diff result intent. Through
// the real binary: the TUI's card shows its key argument and draws the diff, the ACP client gets its
// kind, location and diffs, and a Claude Code PreToolUse hook gets its name and raw arguments — or,
// with a declared `host.claude` (docs/decisions/0210-host-protocol-packages.md), its Claude name and input.
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { promptOnce, updatesOf, withAcp } from './acp/client.ts'
import { jsonLines, runOnLoop, type Sandbox, sandbox } from './helpers.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

/**
 * The plugin: plain JavaScript, no import of tack's packages (a tool definition is an object). Its
 * tool turns `knob` into `KNOB` on one line of a file and reports the applied hunk as its meta.
 */
const FROBNICATOR = `import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
export const name = 'frobnicator'
export const inject = ['tools']
export function apply(ctx) {
  ctx.tools.register({
    name: 'frobnicate',
    description: 'Frobnicates the knob on one line of a file.',
    access: 'write',
    paths: (args) => [args.target],
    parameters: { type: 'object', properties: { target: { type: 'string' }, line: { type: 'integer' } }, required: ['target', 'line'] },
    execute(args, call) {
      const file = resolve(call.cwd, args.target)
      const lines = readFileSync(file, 'utf8').split('\\n')
      const before = lines[args.line - 1]
      lines[args.line - 1] = before.replace('knob', 'KNOB')
      writeFileSync(file, lines.join('\\n'))
      const hunk = { oldStart: args.line, oldLines: 1, newStart: args.line, newLines: 1, lines: ['-' + before, '+' + lines[args.line - 1]] }
      return { content: 'frobnicated ' + args.target, meta: { hunks: [hunk] } }
    },
    present: {
      kind: 'edit',
      key: ['target'],
      title: (args) => 'Frobnicate ' + args.target,
      locations: (args) => [{ path: args.target, line: args.line }],
      call: (args) => [{ kind: 'diff', path: args.target, oldText: 'knob', newText: 'KNOB' }],
      result: (args, result) =>
        result.isError ? [{ kind: 'text', text: 'failed' }] : [{ kind: 'diff', path: args.target, hunks: result.meta.hunks }],
    },
  })
}
`

const ARGS = { target: 'notes.txt', line: 2 }
const frobnicate = { kind: 'tool-calls' as const, calls: [{ name: 'frobnicate', args: ARGS }] }

/** A sandbox with the plugin installed and a file for it to frobnicate. */
async function boxWithFrobnicator(host = ''): Promise<Sandbox> {
  const box = await sandbox()
  const plugins = join(box.tackHome, 'plugins')
  await mkdir(plugins, { recursive: true })
  await writeFile(
    join(plugins, 'frobnicator.mjs'),
    FROBNICATOR.replace('    present: {\n', `${host}    present: {\n`),
  )
  await writeFile(join(box.workspace, 'notes.txt'), 'first line\nturn the knob\nlast line\n')
  return box
}

describe('a plugin tool no front end knows, from its declared presentation', () => {
  test('the TUI card shows its key argument and draws its diff', async () => {
    // the TUI's own sandbox, with the plugin's $TACK_HOME and file taken from one prepared here
    const prepared = await boxWithFrobnicator()
    const { term, box } = await openTui([frobnicate, { kind: 'text', text: 'Frobnicated.' }], {
      args: ['--permission-mode', 'yolo'],
      env: { TACK_HOME: prepared.tackHome },
      prepare: (ws) => copyFile(join(prepared.workspace, 'notes.txt'), join(ws, 'notes.txt')),
    })
    await submit(term, 'frobnicate the notes')
    const screen = await term.waitFor('Frobnicated.', 20_000)
    expect(screen).toMatch(/✓ frobnicate notes\.txt\s+done/)
    expect(screen).toMatch(/^\s*2 - turn the knob$/m)
    expect(screen).toMatch(/^\s*2 \+ turn the KNOB$/m)
    expect(await readFile(join(box.workspace, 'notes.txt'), 'utf8')).toContain('turn the KNOB')
  })

  test('the ACP client gets its kind, its location and its diffs: the snippet, then the applied hunk', async () => {
    const box = await boxWithFrobnicator()
    await withAcp(
      { box, args: ['--permission-mode', 'yolo'], script: [frobnicate, { kind: 'text', text: 'done' }] },
      async (acp) => {
        expect((await promptOnce(acp, 'frobnicate the notes')).stopReason).toBe('end_turn')
        const file = join(box.workspace, 'notes.txt')
        const [call] = updatesOf(acp, 'tool_call')
        expect(call).toMatchObject({
          title: 'Frobnicate notes.txt',
          kind: 'edit',
          locations: [{ path: file, line: 2 }],
          rawInput: ARGS,
          content: [{ type: 'diff', path: file, oldText: 'knob', newText: 'KNOB' }],
        })
        const done = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'completed')
        expect(done?.content).toEqual([
          { type: 'diff', path: file, oldText: 'turn the knob', newText: 'turn the KNOB' },
        ])
      },
    )
  })

  test('a Claude Code PreToolUse hook gets its own name and its raw arguments (no host mapping declared)', async () => {
    const payload = await preToolUsePayload(await boxWithFrobnicator(), 'frobnicate')
    expect(payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'frobnicate',
      tool_input: ARGS,
    })
  })

  test('with a declared host.claude mapping the hook gets its Claude name and input, no bridge edited', async () => {
    const box = await boxWithFrobnicator(HOST_MAPPING)
    const payload = await preToolUsePayload(box, 'Frobnicate')
    expect(payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Frobnicate',
      tool_input: { file_path: join(box.workspace, 'notes.txt'), line_number: 2 },
    })
  })
})

/** The `host` declaration a plugin adds beside `present`: its name and input for Claude Code's hooks. */
const HOST_MAPPING = `    host: {
      claude: {
        name: 'Frobnicate',
        toInput: (args, cwd) => ({ file_path: resolve(cwd, args.target), line_number: args.line }),
      },
    },
`

/** Runs `frobnicate` headless with a PreToolUse hook matching `matcher`; what the hook read on stdin. */
async function preToolUsePayload(box: Sandbox, matcher: string): Promise<Record<string, unknown>> {
  const seen = join(box.root, 'pre-tool-use.json')
  const hook = join(box.root, 'record.sh')
  await writeFile(hook, `#!/usr/bin/env bash\ncat > '${seen}'\n`)
  await chmod(hook, 0o755)
  await mkdir(join(box.home, '.claude'), { recursive: true })
  await writeFile(
    join(box.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: hook }] }] },
    }),
  )
  const server = await startLoopbackServer({
    script: [frobnicate, { kind: 'text' as const, text: 'done' }],
  })
  try {
    const run = await runOnLoop(box, server.baseUrl, [
      '--json',
      '--permission-mode',
      'yolo',
      '--model',
      'loop/m',
      'frobnicate the notes',
    ])
    expect(run.code).toBe(0)
    const result = jsonLines(run.stdout).find((l) => l.type === 'tool/result') as {
      data: { isError: boolean }
    }
    expect(result.data.isError).toBe(false)
    return JSON.parse(await readFile(seen, 'utf8'))
  } finally {
    await server.close()
  }
}
