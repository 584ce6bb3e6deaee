import { Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { FsToolsConfig, FsToolsPlugin } from '../src/index.ts'
import { declaredPaths, toolAccess, ToolsPlugin } from '@tack/tools'
import { fsContext, newSession, run, stubAgent, tempDir, textOf } from './support.ts'

const FIELDS = {
  readLimit: { default: 2000, configured: 10, rejected: 0 },
  readMaxLineLength: { default: 2000, configured: 80, rejected: 8 },
  readMaxBytes: { default: 51_200, configured: 4096, rejected: 100 },
  readStreamMinSize: { default: 10 * 1024 * 1024, configured: 0, rejected: -1 },
  streamChunkBytes: { default: 64 * 1024, configured: 4096, rejected: 1024 },
  globMaxResults: { default: 1000, configured: 5, rejected: 0 },
  grepMaxMatches: { default: 500, configured: 5, rejected: 1.5 },
  mentionMaxBytes: { default: 51_200, configured: 2048, rejected: 100 },
  mentionMaxFiles: { default: 20, configured: 0, rejected: 1001 },
  mentionIndexMaxFiles: { default: 50_000, configured: 100, rejected: 99 },
} as const

describe('FsToolsPlugin', () => {
  it('TL-12 TL-16 config: every field has its default', () => {
    const config = FsToolsConfig.parse({})
    for (const [key, field] of Object.entries(FIELDS))
      expect(config[key as keyof typeof config], key).toBe(field.default)
  })

  it('TL-12 TL-16 config: every field takes a configured value', () => {
    for (const [key, field] of Object.entries(FIELDS)) {
      expect(FsToolsConfig.parse({ [key]: field.configured })[key as keyof typeof FIELDS], key).toBe(
        field.configured,
      )
    }
  })

  it('TL-12 TL-16 config: an out-of-range value is rejected naming the file, the key and the range', () => {
    for (const [key, field] of Object.entries(FIELDS)) {
      expect(() => FsToolsConfig.parse({ [key]: field.rejected }, 'tack.json'), key).toThrow(
        new RegExp(`^tack\\.json: ${key}: must be an integer`),
      )
    }
    expect(() => FsToolsConfig.parse({ readLimt: 5 })).toThrow(/readLimt: unknown key/)
  })

  it('TL-1 the plugin registers the six tools and loading it with a bad config fails', async () => {
    const ctx = await fsContext()
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual([
      'edit',
      'glob',
      'grep',
      'read',
      'todo_write',
      'write',
    ])
    const bad = new Context()
    await bad.plugin(ToolsPlugin, {})
    const fiber = bad.plugin(FsToolsPlugin, { readLimit: -3 })
    await expect(fiber).rejects.toThrow(/readLimit/)
    expect(bad.tools.schemas()).toEqual([])
  })

  it('TL-34 todo_write replaces the list: after two calls the log holds both and the last is the second', async () => {
    const cwd = await tempDir()
    const ctx = await fsContext()
    const session = newSession(cwd)
    const agent = stubAgent(cwd, session)
    const first = [{ content: 'plan', status: 'in_progress' }]
    const second = [
      { content: 'plan', status: 'completed', priority: 'low' },
      { content: 'build', status: 'in_progress' },
    ]
    await run(ctx, 'todo_write', { todos: first }, { cwd, agent })
    const result = await run(ctx, 'todo_write', { todos: second }, { cwd, agent })
    expect(textOf(result)).toBe('Todo list updated (1 of 2 completed):\n[x] plan (low)\n[~] build')
    const writes = session.events().filter((e) => e.type === 'todo/write')
    expect(writes.map((e) => e.data)).toEqual([{ todos: first }, { todos: second }])
  })

  it('TL-34 a bad todo status is INVALID_ARGS and records nothing', async () => {
    const cwd = await tempDir()
    const ctx = await fsContext()
    const session = newSession(cwd)
    const result = await run(
      ctx,
      'todo_write',
      { todos: [{ content: 'x', status: 'done' }] },
      { cwd, agent: stubAgent(cwd, session) },
    )
    expect(result.error?.code).toBe('INVALID_ARGS')
    expect(session.events().filter((e) => e.type === 'todo/write')).toEqual([])
  })

  it('R6 0011: each fs tool declares its access, the paths a call touches and its Claude/Codex names', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolsPlugin, {})
    await ctx.plugin(FsToolsPlugin, {})
    const declared = (name: string, args: unknown) => {
      const def = ctx.tools.get(name)
      const paths = def ? declaredPaths(def, args) : undefined
      return {
        access: toolAccess(def),
        paths: paths?.ok ? paths.paths : paths,
        hostNames: Object.fromEntries(Object.entries(def?.host ?? {}).map(([host, m]) => [host, m?.name])),
      }
    }
    const expected: Array<[name: string, args: unknown, declaration: unknown]> = [
      ['read', { file_path: 'a' }, { access: 'read', paths: ['a'], hostNames: { claude: 'Read' } }],
      [
        'write',
        { file_path: '/x', content: '' },
        { access: 'write', paths: ['/x'], hostNames: { claude: 'Write', codex: 'apply_patch' } },
      ],
      [
        'edit',
        { file_path: '../y' },
        { access: 'write', paths: ['../y'], hostNames: { claude: 'Edit', codex: 'apply_patch' } },
      ],
      ['glob', { pattern: '*' }, { access: 'read', paths: ['.'], hostNames: { claude: 'Glob' } }],
      [
        'grep',
        { pattern: 'x', path: '/etc' },
        { access: 'read', paths: ['/etc'], hostNames: { claude: 'Grep' } },
      ],
      ['todo_write', { todos: [] }, { access: 'session', paths: [], hostNames: { claude: 'TodoWrite' } }],
    ]
    for (const [name, args, declaration] of expected) expect(declared(name, args), name).toEqual(declaration)
  })
})
