// Issue 11 (items 1, 2, 4): what a hook sees in tack is what it sees in Claude Code 2.1.328
// (protocols.md §A.3, §A.4, §F). Real child-process hooks in a real loop; only the model is scripted.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { FsToolsPlugin } from '@tack/tool-fs'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, projectHookCommand, prompt, script, tempDir } from './helpers.ts'

type Payload = Record<string, unknown>

const BASE = ['session_id', 'transcript_path', 'cwd', 'hook_event_name']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The keys Claude Code sends per event (protocols.md §A.3/§A.4, CC-SDK `*HookInput`). */
const EVENT_KEYS: Record<string, string[]> = {
  SessionStart: [...BASE, 'source', 'model'],
  UserPromptSubmit: [...BASE, 'permission_mode', 'prompt_id', 'prompt'],
  PreToolUse: [...BASE, 'permission_mode', 'prompt_id', 'effort', 'tool_name', 'tool_input', 'tool_use_id'],
  PostToolUse: [
    ...BASE,
    'permission_mode',
    'prompt_id',
    'effort',
    'tool_name',
    'tool_input',
    'tool_use_id',
    'tool_response',
    'duration_ms',
  ],
  Stop: [
    ...BASE,
    'permission_mode',
    'prompt_id',
    'effort',
    'stop_hook_active',
    'last_assistant_message',
    'background_tasks',
    'session_crons',
  ],
}

/** Claude Code's `tool_response` keys per tool (protocols.md §F; issue 11.2). */
const RESPONSE_KEYS: Record<string, string[]> = {
  Bash: ['stdout', 'stderr', 'interrupted', 'isImage', 'noOutputExpected'],
  Write: ['type', 'filePath', 'content', 'structuredPatch', 'originalFile', 'userModified'],
  Edit: [
    'filePath',
    'oldString',
    'newString',
    'originalFile',
    'structuredPatch',
    'userModified',
    'replaceAll',
  ],
  Read: ['type', 'file'],
}

const sorted = (keys: string[]) => [...keys].sort()
/** A JSON-lines file, parsed. */
const jsonLinesOf = async (path: string): Promise<Payload[]> =>
  (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Payload)
/** A real hook that appends its stdin payload, as one jq-compacted line, to `<out>/<name>.jsonl`. */
async function captureHook(out: string, name: string) {
  const log = join(out, `${name}.jsonl`)
  return { log, capture: await script(out, `${name}.sh`, `jq -c . >> '${log}'`) }
}
/** A dozen hook processes per session: generous under a loaded machine (the session itself takes ~6 s). */
const SESSION_TIMEOUT_MS = 120_000

describe('issue 11 Claude Code payload fidelity', () => {
  it(
    '11.1/11.2 every event of a Bash, Read, Write (create, update), Edit and Stop session matches the reference key by key',
    async () => {
      const ws = await tempDir('tack-hc-fid-ws-')
      const out = await tempDir('tack-hc-fid-out-')
      await writeFile(join(ws, 'existing.txt'), 'one\ntwo\nthree\n')
      const { log, capture } = await captureHook(out, 'payloads')
      const all = [{ hooks: [{ type: 'command', command: capture }] }]
      const t = await bridgeAgent({
        cwd: ws,
        plugins: [{ plugin: FsToolsPlugin }],
        projectHooks: {
          SessionStart: all,
          UserPromptSubmit: all,
          PreToolUse: all,
          PostToolUse: all,
          Stop: all,
        },
        script: [
          toolCalls([{ name: 'bash', args: { command: 'echo hello' } }]),
          toolCalls([{ name: 'read', args: { file_path: 'existing.txt' } }]),
          toolCalls([{ name: 'write', args: { file_path: 'new.txt', content: 'fresh\n' } }]),
          toolCalls([{ name: 'write', args: { file_path: 'existing.txt', content: 'one\nTWO\nthree\n' } }]),
          toolCalls([
            { name: 'edit', args: { file_path: 'existing.txt', old_string: 'three', new_string: '3' } },
          ]),
          text('All done.'),
        ],
      })
      try {
        expect((await t.agent.send(prompt('touch the files'))).reason).toEqual({ kind: 'completed' })
        const payloads = await jsonLinesOf(log)
        const events = payloads.map((p) => p.hook_event_name)
        expect(events[0]).toBe('SessionStart')
        expect(events.slice(1)).toEqual([
          'UserPromptSubmit',
          ...Array(5).fill(['PreToolUse', 'PostToolUse']).flat(),
          'Stop',
        ])
        for (const p of payloads) {
          expect(sorted(Object.keys(p)), String(p.hook_event_name)).toEqual(
            sorted(EVENT_KEYS[String(p.hook_event_name)]),
          )
        }
        // One prompt id shared by every event of the prompt (not SessionStart).
        const promptIds = new Set(payloads.slice(1).map((p) => p.prompt_id))
        expect(promptIds.size).toBe(1)
        expect([...promptIds][0]).toMatch(UUID)
        for (const p of payloads.filter((p) => 'effort' in p)) expect(p.effort).toEqual({ level: 'medium' })

        const posts = payloads.filter((p) => p.hook_event_name === 'PostToolUse')
        for (const p of posts) {
          const tool = String(p.tool_name)
          expect(sorted(Object.keys(p.tool_response as Payload)), tool).toEqual(sorted(RESPONSE_KEYS[tool]))
          expect(typeof p.duration_ms).toBe('number')
        }
        const [bash, read, create, update, edit] = posts.map((p) => p.tool_response as Payload)
        // Claude Code drops the output's blank ends: `echo hello` gives "hello" (README "Bash")
        expect(bash).toEqual({
          stdout: 'hello',
          stderr: '',
          interrupted: false,
          isImage: false,
          noOutputExpected: false,
        })
        expect(read).toEqual({
          type: 'text',
          file: {
            filePath: join(ws, 'existing.txt'),
            // as Claude Code: the file's final newline stays, and the empty line after it counts
            content: 'one\ntwo\nthree\n',
            numLines: 4,
            startLine: 1,
            totalLines: 4,
          },
        })
        expect(create).toEqual({
          type: 'create',
          filePath: join(ws, 'new.txt'),
          content: 'fresh\n',
          structuredPatch: [],
          originalFile: null,
          userModified: false,
        })
        expect(update).toMatchObject({
          type: 'update',
          originalFile: 'one\ntwo\nthree\n',
          content: 'one\nTWO\nthree\n',
        })
        expect(update.structuredPatch).toEqual([
          { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+TWO', ' three'] },
        ])
        expect(edit).toEqual({
          filePath: join(ws, 'existing.txt'),
          oldString: 'three',
          newString: '3',
          originalFile: 'one\nTWO\nthree\n',
          structuredPatch: [
            { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', ' TWO', '-three', '+3'] },
          ],
          userModified: false,
          replaceAll: false,
        })
        const stop = payloads.at(-1) as Payload
        expect(stop).toMatchObject({
          background_tasks: [],
          session_crons: [],
          last_assistant_message: 'All done.',
        })
        expect(payloads[0]).not.toHaveProperty('permission_mode')
      } finally {
        await t.dispose()
      }
    },
    SESSION_TIMEOUT_MS,
  )

  it(
    '11.4 a hook that branches on $CLAUDECODE, reads prompt_id and structuredPatch and writes CLAUDE_ENV_FILE works as in Claude Code',
    async () => {
      const ws = await tempDir('tack-hc-fid-env-')
      const dir = join(ws, '.claude', 'hooks')
      await mkdir(dir, { recursive: true })
      await writeFile(join(ws, 'app.txt'), 'alpha\nbeta\n')
      await script(
        dir,
        'session-start.sh',
        [
          'cat > /dev/null',
          'if [ "$CLAUDECODE" = "1" ]; then',
          '  echo "export DEPLOY_TARGET=staging" >> "$CLAUDE_ENV_FILE"',
          '  echo "mode=claude effort=$CLAUDE_EFFORT agent=$AI_AGENT entry=$CLAUDE_CODE_ENTRYPOINT sid=$CLAUDE_CODE_SESSION_ID" > "$CLAUDE_PROJECT_DIR/start.log"',
          'else',
          '  echo "mode=other" > "$CLAUDE_PROJECT_DIR/start.log"',
          'fi',
        ].join('\n'),
      )
      await script(
        dir,
        'after-edit.sh',
        [
          'input=$(cat)',
          '[ "$CLAUDECODE" = "1" ] || exit 0',
          'pid=$(echo "$input" | jq -r .prompt_id)',
          'added=$(echo "$input" | jq -r \'[.tool_response.structuredPatch[].lines[] | select(startswith("+"))] | join(",")\')',
          'jq -nc --arg c "prompt $pid added $added" \'{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: $c}}\'',
        ].join('\n'),
      )
      const cmd = (name: string) => projectHookCommand(name)
      const t = await bridgeAgent({
        cwd: ws,
        plugins: [{ plugin: FsToolsPlugin }],
        projectHooks: {
          SessionStart: [{ hooks: [cmd('session-start.sh')] }],
          PostToolUse: [{ matcher: 'Edit|Write', hooks: [cmd('after-edit.sh')] }],
        },
        script: [
          toolCalls([{ name: 'read', args: { file_path: 'app.txt' } }]),
          toolCalls([
            { name: 'edit', args: { file_path: 'app.txt', old_string: 'beta', new_string: 'gamma' } },
          ]),
          toolCalls([{ name: 'bash', args: { command: 'echo "target=$DEPLOY_TARGET"' } }]),
          text('Deployed.'),
        ],
      })
      try {
        expect((await t.agent.send(prompt('edit and deploy'))).reason).toEqual({ kind: 'completed' })
        expect(await readFile(join(ws, 'start.log'), 'utf8')).toBe(
          `mode=claude effort=medium agent=tack entry=cli sid=${t.agent.session.id}\n`,
        )
        const requests = t.requestTexts()
        expect(requests[2]).toMatch(new RegExp(`prompt ${UUID.source.slice(1, -1)} added \\+gamma`))
        const bashResult = t.of('tool/result').at(-1)
        expect(JSON.stringify(bashResult?.data)).toContain('target=staging')
        // The source line is tack's plumbing: a hook's tool_input shows the model's command.
        expect(requests[3]).toContain('target=staging')
      } finally {
        await t.dispose()
      }
    },
    SESSION_TIMEOUT_MS,
  )

  it(
    '11 Bash tool_response as Claude Code: blank ends dropped, noOutputExpected true only for commands silent by design',
    async () => {
      const ws = await tempDir('tack-hc-fid-bash-')
      const out = await tempDir('tack-hc-fid-bash-out-')
      const { log, capture } = await captureHook(out, 'posts')
      // A CLAUDE_ENV_FILE with a line in it: tack then puts a source line before every command, which
      // must not count as one of the command's own.
      const env = await script(
        out,
        'env.sh',
        'cat > /dev/null; echo "export FROM_ENV=1" >> "$CLAUDE_ENV_FILE"',
      )
      const commands = [
        'echo hi from bash',
        'mkdir -p d && touch d/f',
        'cp d/f d/g',
        'mv d/g d/h',
        'rm -f d/none || echo failed',
        'touch d/x > d/log',
        "printf '\\n\\n  two  \\n\\nlines\\n\\n'",
        'ls d',
        'mkdir e && echo made',
      ]
      const t = await bridgeAgent({
        cwd: ws,
        projectHooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: env }] }],
          PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: capture }] }],
        },
        script: [
          ...commands.map((command) => toolCalls([{ name: 'bash', args: { command } }])),
          text('done'),
        ],
      })
      try {
        expect((await t.agent.send(prompt('run them'))).reason).toEqual({ kind: 'completed' })
        const responses = (await jsonLinesOf(log)).map((p) => [
          (p.tool_input as Payload).command,
          p.tool_response,
        ])
        const bash = (stdout: string, noOutputExpected: boolean) => ({
          stdout,
          stderr: '',
          interrupted: false,
          isImage: false,
          noOutputExpected,
        })
        expect(responses).toEqual([
          [commands[0], bash('hi from bash', false)],
          [commands[1], bash('', true)],
          [commands[2], bash('', true)],
          [commands[3], bash('', true)],
          [commands[4], bash('', true)],
          [commands[5], bash('', true)],
          [commands[6], bash('  two  \n\nlines', false)],
          [commands[7], bash('f\nh\nlog\nx', false)],
          [commands[8], bash('made', false)],
        ])
      } finally {
        await t.dispose()
      }
    },
    SESSION_TIMEOUT_MS,
  )

  it(
    '11 TodoWrite tool_response as Claude Code: {oldTodos, newTodos}, in the payload and in the transcript',
    async () => {
      const ws = await tempDir('tack-hc-fid-todo-')
      const out = await tempDir('tack-hc-fid-todo-out-')
      const { log, capture } = await captureHook(out, 'posts')
      const keep = await script(
        out,
        'keep.sh',
        `cp "$(jq -r .transcript_path)" '${join(out, 'transcript.jsonl')}'`,
      )
      const first = [{ content: 'read the code', status: 'in_progress' }]
      const second = [
        { content: 'read the code', status: 'completed' },
        { content: 'fix it', status: 'pending', priority: 'high' },
      ]
      const t = await bridgeAgent({
        cwd: ws,
        plugins: [{ plugin: FsToolsPlugin }],
        projectHooks: {
          PostToolUse: [{ matcher: 'TodoWrite', hooks: [{ type: 'command', command: capture }] }],
          Stop: [{ hooks: [{ type: 'command', command: keep }] }],
        },
        script: [
          toolCalls([{ name: 'todo_write', args: { todos: first } }]),
          toolCalls([{ name: 'todo_write', args: { todos: second } }]),
          text('planned'),
        ],
      })
      try {
        expect((await t.agent.send(prompt('plan it'))).reason).toEqual({ kind: 'completed' })
        const posts = await jsonLinesOf(log)
        expect(posts.map((p) => [p.tool_name, p.tool_input, p.tool_response])).toEqual([
          ['TodoWrite', { todos: first }, { oldTodos: [], newTodos: first }],
          ['TodoWrite', { todos: second }, { oldTodos: first, newTodos: second }],
        ])
        const results = (await jsonLinesOf(join(out, 'transcript.jsonl')))
          .filter((l) => l.toolUseResult !== undefined)
          .map((l) => l.toolUseResult)
        expect(results).toEqual([
          { oldTodos: [], newTodos: first },
          { oldTodos: first, newTodos: second },
        ])
      } finally {
        await t.dispose()
      }
    },
    SESSION_TIMEOUT_MS,
  )
})
