// B8 tool names, tool_input / tool_response shapes and the way back; permission modes; B6 `if` parsing.
import { writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyPatch, type StructuredPatch } from 'diff'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTestAgent } from '@tack/agent/testing'
import {
  type ClaudeBeforeCall,
  type ClaudeToolResult,
  claudeResponse,
  claudeToolSubjects,
} from '@tack/claude-protocol'
import { SubagentPlugin } from '@tack/subagent'
import { BashToolPlugin } from '@tack/tool-bash'
import { FsToolsPlugin } from '@tack/tool-fs'
import { WebToolsPlugin } from '@tack/tool-web'
import { HostMappingReader } from '@tack/tools'
import { bashParts, claudePermissionMode, globRegex, ifMatches } from '../src/index.ts'

const cwd = '/work/ws'

// The built-in tools' own `host.claude` declarations, read as the bridge reads them. The examples below
// name the Claude tool; TACK_NAME gives the tack tool that declares it.
const builtIn = await createTestAgent({
  plugins: [
    { plugin: FsToolsPlugin },
    { plugin: BashToolPlugin },
    { plugin: WebToolsPlugin, config: { env: {}, searchProvider: 'plugin' } },
    { plugin: SubagentPlugin, config: {} },
  ],
  script: [],
})
const claude = new HostMappingReader('claude', builtIn.ctx.tools)
const TACK_NAME: Readonly<Record<string, string>> = {
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  Bash: 'bash',
  Glob: 'glob',
  Grep: 'grep',
  TodoWrite: 'todo_write',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Agent: 'subagent',
}
const tackOf = (claudeName: string) => TACK_NAME[claudeName] ?? claudeName
const claudeToolName = (tools: ConstructorParameters<typeof HostMappingReader>[1], name: string) =>
  new HostMappingReader('claude', tools).name(name)
const toClaudeToolInput = (name: string, args: unknown, at: string) => claude.input(tackOf(name), args, at)
function fromClaudeToolInput(name: string, input: Record<string, unknown>): Record<string, unknown> {
  const back = claude.arguments(tackOf(name), input, cwd, {})
  if (!back.ok) throw new Error(back.problem)
  return back.arguments
}
const toClaudeToolResponse = (
  name: string,
  args: unknown,
  result: ClaudeToolResult,
  at: string,
  before?: ClaudeBeforeCall,
) => claudeResponse(claude, tackOf(name), args, result, at, before) as Record<string, unknown>

describe('B8 tool shapes', () => {
  it('B8 0011 names: a tool is shown under the Claude name it declares; others keep theirs; Task aliases Agent', () => {
    const declared: Record<string, { host?: { claude?: { name: string } } }> = {
      read: { host: { claude: { name: 'Read' } } },
      subagent: { host: { claude: { name: 'Agent' } } },
      deploy: {},
    }
    const tools = { get: (name: string) => declared[name] as never }
    expect(claudeToolName(tools, 'read')).toBe('Read')
    expect(claudeToolName(tools, 'subagent')).toBe('Agent')
    expect(claudeToolName(tools, 'deploy')).toBe('deploy')
    expect(claudeToolName(tools, 'mcp__memory__get')).toBe('mcp__memory__get')
    expect(claudeToolName(undefined, 'read')).toBe('read')
    expect(claudeToolSubjects('Agent')).toEqual(['Agent', 'Task'])
    expect(claudeToolSubjects('Bash')).toEqual(['Bash'])
  })

  it('B8 tool_input per tool (absolute file paths, renamed fields, fixed extras)', () => {
    expect(toClaudeToolInput('Read', { file_path: 'a.md', offset: 3, limit: 5 }, cwd)).toEqual({
      file_path: '/work/ws/a.md',
      offset: 3,
      limit: 5,
    })
    expect(toClaudeToolInput('Write', { file_path: '/abs/x', content: 'c' }, cwd)).toEqual({
      file_path: '/abs/x',
      content: 'c',
    })
    expect(
      toClaudeToolInput(
        'Edit',
        { file_path: 'x', old_string: 'a', new_string: 'b', replace_all: false },
        cwd,
      ),
    ).toEqual({
      file_path: '/work/ws/x',
      old_string: 'a',
      new_string: 'b',
      replace_all: false,
    })
    expect(toClaudeToolInput('Bash', { command: 'ls', timeout_ms: 9, description: 'd' }, cwd)).toEqual({
      command: 'ls',
      description: 'd',
      timeout: 9,
    })
    expect(toClaudeToolInput('Glob', { pattern: '*.ts', path: 'src' }, cwd)).toEqual({
      pattern: '*.ts',
      path: 'src',
    })
    expect(
      toClaudeToolInput('Grep', { pattern: 'p', glob: '*.ts', ignore_case: true, output: 'count' }, cwd),
    ).toEqual({
      pattern: 'p',
      glob: '*.ts',
      '-i': true,
      output_mode: 'count',
    })
    expect(toClaudeToolInput('WebFetch', { url: 'https://x' }, cwd)).toEqual({
      url: 'https://x',
      prompt: '',
    })
    expect(toClaudeToolInput('WebSearch', { query: 'q' }, cwd)).toEqual({ query: 'q' })
    expect(toClaudeToolInput('Agent', { prompt: 'p', description: 'd' }, cwd)).toEqual({
      prompt: 'p',
      description: 'd',
      subagent_type: 'general-purpose',
    })
    expect(toClaudeToolInput('run_code', { code: '1' }, cwd)).toEqual({ code: '1' })
    expect(toClaudeToolInput('Bash', undefined, cwd)).toEqual({})
  })

  it('B8 B6 updatedInput back to tack arguments: renamed fields, Claude-only fields dropped, the rest kept', () => {
    expect(
      fromClaudeToolInput('Bash', { command: 'ls', timeout: 5, run_in_background: true, description: 'd' }),
    ).toEqual({
      command: 'ls',
      timeout_ms: 5,
      description: 'd',
    })
    expect(
      fromClaudeToolInput('Grep', {
        pattern: 'p',
        '-i': true,
        output_mode: 'files_with_matches',
        multiline: true,
      }),
    ).toEqual({
      pattern: 'p',
      ignore_case: true,
      output: 'files',
    })
    expect(fromClaudeToolInput('WebFetch', { url: 'u', prompt: 'summarise' })).toEqual({ url: 'u' })
    expect(fromClaudeToolInput('Agent', { prompt: 'p', description: 'd', subagent_type: 'x' })).toEqual({
      prompt: 'p',
      description: 'd',
    })
    expect(fromClaudeToolInput('mcp__x__y', { a: 1 })).toEqual({ a: 1 })
    // Grep's output_mode translation belongs to Grep: another tool's `output` passes as it is.
    expect(fromClaudeToolInput('mcp__x__y', { output: 'files_with_matches' })).toEqual({
      output: 'files_with_matches',
    })
    expect(fromClaudeToolInput('Write', { file_path: '/a', content: 'c', extra: 1 })).toEqual({
      file_path: '/a',
      content: 'c',
      extra: 1,
    })
  })

  it('B8 round trip: for each tool, back(to(args)) gives the tack arguments', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['Read', { file_path: '/abs/a', offset: 1, limit: 2 }],
      ['Edit', { file_path: '/abs/a', old_string: 'x', new_string: 'y', replace_all: true }],
      ['Bash', { command: 'ls', timeout_ms: 100 }],
      ['Grep', { pattern: 'p', ignore_case: false, output: 'content' }],
      ['Agent', { prompt: 'p', description: 'd' }],
    ]
    for (const [name, args] of cases)
      expect(fromClaudeToolInput(name, toClaudeToolInput(name, args, cwd))).toEqual(args)
  })

  it("B8 tool_response: Bash is the command's own output; tools Claude Code lacks keep tack's shape", () => {
    const ok = { content: [{ type: 'text', text: 'out' }], isError: false }
    expect(
      toClaudeToolResponse(
        'Bash',
        { command: 'x' },
        {
          content: [{ type: 'text', text: 'late\n[timed out after 5 ms]' }],
          isError: true,
          error: { code: 'TIMEOUT' },
          meta: { output: 'late\n' },
        },
        cwd,
      ),
    ).toEqual({ stdout: 'late', stderr: '', interrupted: true, isImage: false, noOutputExpected: false })
    expect(
      toClaudeToolResponse('Bash', { command: 'true' }, { ...ok, meta: { output: '' } }, cwd).stdout,
    ).toBe('')
    expect(toClaudeToolResponse('run_code', {}, { ...ok, isError: true }, cwd)).toEqual({
      output: 'out',
      isError: true,
    })
    // a TodoWrite that failed replaced nothing: the old list stays the new one
    const old = [{ content: 'a', status: 'pending' }]
    expect(
      toClaudeToolResponse('TodoWrite', { todos: [] }, { ...ok, isError: true }, cwd, { previousTodos: old }),
    ).toEqual({ oldTodos: old, newTodos: old })
  })

  // Issue 11.2: every Write/Edit response has exactly Claude Code's keys, and its structuredPatch
  // applied to originalFile gives the file as written (what hooks that replay patches rely on).
  const lines = fc.array(fc.constantFrom('a', 'b', 'c', '', 'x y', '  z'), { maxLength: 12 })
  const text = lines.map((l) => (l.length ? `${l.join('\n')}\n` : ''))
  const ok = { content: [{ type: 'text', text: 'done' }], isError: false }
  it("11.2 property: Write responses have Claude Code's keys and a patch from originalFile to content", () => {
    fc.assert(
      fc.property(fc.option(text, { nil: null }), text, (original, content) => {
        const r = toClaudeToolResponse('Write', { file_path: 'f.txt', content }, ok, cwd, {
          originalFile: original,
        })
        expect(Object.keys(r).sort()).toEqual(
          ['content', 'filePath', 'originalFile', 'structuredPatch', 'type', 'userModified'].sort(),
        )
        expect(r.type).toBe(original === null ? 'create' : 'update')
        expect(r.filePath).toBe('/work/ws/f.txt')
        if (original !== null) {
          const patch = { hunks: r.structuredPatch as StructuredPatch['hunks'] }
          expect(applyPatch(original, patch as StructuredPatch)).toBe(content)
        } else expect(r.structuredPatch).toEqual([])
      }),
      { numRuns: 200 },
    )
  })
  it('11.2 a whole-file rewrite of a large file gets the empty patch (bounded), a small one always its patch', () => {
    const big = (tag: string) => Array.from({ length: 60_000 }, (_, i) => `${tag} ${i}`).join('\n')
    const large = toClaudeToolResponse('Write', { file_path: 'f.txt', content: big('new') }, ok, cwd, {
      originalFile: big('old'),
    })
    expect(large.structuredPatch).toEqual([])
    const small = toClaudeToolResponse(
      'Write',
      { file_path: 'f.txt', content: big('new').slice(0, 500) },
      ok,
      cwd,
      {
        originalFile: big('old').slice(0, 500),
      },
    )
    expect((small.structuredPatch as unknown[]).length).toBe(1)
  })
  it("11.2 property: Edit responses have Claude Code's keys and a patch from originalFile to the edited file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tack-hc-shape-'))
    const file = join(dir, 'e.txt')
    fc.assert(
      fc.property(text, text, fc.boolean(), (original, after, all) => {
        writeFileSync(file, after)
        const args = { file_path: file, old_string: 'o', new_string: 'n', replace_all: all }
        const r = toClaudeToolResponse('Edit', args, ok, cwd, { originalFile: original })
        expect(Object.keys(r).sort()).toEqual(
          [
            'filePath',
            'newString',
            'oldString',
            'originalFile',
            'replaceAll',
            'structuredPatch',
            'userModified',
          ].sort(),
        )
        expect(r).toMatchObject({
          filePath: file,
          oldString: 'o',
          newString: 'n',
          replaceAll: all,
          userModified: false,
        })
        const patch = { hunks: r.structuredPatch } as StructuredPatch
        expect(applyPatch(original, patch)).toBe(after)
      }),
      { numRuns: 100 },
    )
  })

  it('B8 permission modes: ask → default, workspace-write → acceptEdits, read-only → plan, yolo → bypassPermissions', () => {
    expect(
      ['ask', 'workspace-write', 'read-only', 'yolo', undefined, 'other'].map(claudePermissionMode),
    ).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'default', 'default'])
  })
})

describe('B6 if rules', () => {
  const bash = (command: string) => ({
    toolNames: ['Bash'],
    toolInput: { command },
    projectDir: '/p',
    home: '/h',
  })
  const file = (tool: string, file_path: string) => ({
    toolNames: [tool],
    toolInput: { file_path },
    projectDir: '/p',
    home: '/h',
  })

  it('B6 Bash rules test every subcommand, after VAR= assignments, inside $() and backticks', () => {
    expect(ifMatches('Bash(git *)', bash('git status'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('ls && git push'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('ls; echo ok | GIT_DIR=x git log'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('echo $(git rev-parse HEAD)'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('echo `git rev-parse HEAD`'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('(cd sub && git pull)'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('echo "git status"'))).toBe(false)
    expect(ifMatches('Bash(git *)', bash('ls 2>&1 | wc -l'))).toBe(false)
    expect(ifMatches('Bash(npm run test:*)', bash('npm run test:unit -- --watch'))).toBe(true)
    expect(ifMatches('Bash', bash('anything'))).toBe(true)
    expect(ifMatches('Edit', bash('anything'))).toBe(false)
  })

  it('B6 unparsable rules and commands fail open (the hook runs)', () => {
    expect(ifMatches('Bash(git *)', bash('echo "unterminated'))).toBe(true)
    expect(ifMatches('Bash(git *)', bash('echo $(unclosed'))).toBe(true)
    expect(ifMatches('not a rule!', bash('ls'))).toBe(true)
    expect(ifMatches(42, bash('ls'))).toBe(true)
    expect(
      ifMatches('WebFetch(domain:example.com)', {
        toolNames: ['WebFetch'],
        toolInput: { url: 'u' },
        projectDir: '/p',
      }),
    ).toBe(true)
  })

  it('B6 file rules test file_path: bare globs match the name anywhere, / is the project, // absolute, ~/ home', () => {
    expect(ifMatches('Edit(*.ts)', file('Edit', '/p/src/a.ts'))).toBe(true)
    expect(ifMatches('Edit(*.ts)', file('Edit', '/p/src/a.js'))).toBe(false)
    expect(ifMatches('Write(/src/**)', file('Write', '/p/src/deep/x.md'))).toBe(true)
    expect(ifMatches('Write(/src/**)', file('Write', '/other/src/x.md'))).toBe(false)
    expect(ifMatches('Read(//etc/*)', file('Read', '/etc/passwd'))).toBe(true)
    expect(ifMatches('Read(~/.ssh/**)', file('Read', '/h/.ssh/id_rsa'))).toBe(true)
    expect(ifMatches('Edit(src/*.{ts,tsx})', file('Edit', '/p/src/a.tsx'))).toBe(true)
    expect(globRegex('**/*.md').test('a/b/c.md')).toBe(true)
    expect(globRegex('*.md').test('a/c.md')).toBe(false)
  })

  it('B6 R4 bashParts and ifMatches never throw on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (rule, command) => {
        const parts = bashParts(command)
        if (parts) for (const p of parts) expect(typeof p).toBe('string')
        expect(typeof ifMatches(`Bash(${rule})`, bash(command))).toBe('boolean')
        expect(typeof ifMatches(rule, file('Edit', command))).toBe('boolean')
      }),
      { numRuns: 500 },
    )
  })
})
