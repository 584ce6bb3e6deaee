// 0011: what a tool declares about itself (access, paths, host names), how it is checked at definition,
// read the same way by every consumer, and how the pipeline holds declared paths to the workspace scope.
import { existsSync } from 'node:fs'
import { mkdir, realpath, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  declaredPaths,
  defineTool,
  registerTool,
  ToolRegistrationError,
  toolAccess,
} from '../src/index.ts'
import { stampTool } from '../src/testing/index.ts'
import { call, createToolsContext, tempDir, thrownBy } from './support.ts'

const base = {
  name: 'probe',
  description: 'd',
  parameters: { type: 'object', properties: { p: { type: 'string' } } },
  execute: () => 'ok',
} as const

const definitionError = (extra: Record<string, unknown>) =>
  thrownBy(ToolRegistrationError, () => defineTool({ ...base, ...extra } as never))

describe('0011 declarations at definition', () => {
  test('0011 0210 a malformed access, paths or host fails INVALID_TOOL_DEFINITION naming the field', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ access: 'delete' }, 'access must be one of read, write, execute, network, session'],
      [{ paths: ['a'] }, 'paths must be a function'],
      [{ host: 'Read' }, 'host must be an object'],
      [{ host: { cursor: { name: 'Read' } } }, 'host.cursor is not a known host'],
      [{ host: { claude: 'Read' } }, 'host.claude must be an object'],
      [{ host: { claude: { name: ' ' } } }, 'host.claude.name must be a non-empty string'],
      [{ host: { codex: { name: 'x', toInput: {} } } }, 'host.codex.toInput must be a function'],
    ]
    for (const [extra, message] of cases) {
      const error = definitionError(extra)
      expect(error.code, message).toBe('INVALID_TOOL_DEFINITION')
      expect(error.message, message).toContain(message)
    }
  })

  test('0011 readers: undeclared access is write, undeclared paths none, host mappings as declared', () => {
    const plain = defineTool(base)
    expect(toolAccess(plain)).toBe('write')
    expect(toolAccess(undefined)).toBe('write')
    expect(declaredPaths(plain, { p: 'x' })).toEqual({ ok: true, paths: [] })
    expect(plain.host).toBeUndefined()
    expect(toolAccess(stampTool)).toBe('write')
    expect(declaredPaths(stampTool, { file_path: 'a/b' })).toEqual({ ok: true, paths: ['a/b'] })
    expect(stampTool.host?.claude?.name).toBe('Stamp')
    expect(stampTool.host?.codex?.name).toBe('stamp_file')
  })

  test('0011 a paths declaration that throws or returns non-strings is a problem, never a silent empty list', () => {
    const throws = defineTool({
      ...base,
      paths: () => {
        throw new Error('boom')
      },
    })
    expect(declaredPaths(throws, {})).toEqual({
      ok: false,
      problem: 'the paths declaration of tool "probe" threw: boom',
    })
    const wrong = defineTool({ ...base, paths: () => [''] })
    expect(declaredPaths(wrong, {})).toMatchObject({ ok: false })
  })
})

describe('0011 TL-11 the pipeline holds declared paths to the workspace', () => {
  async function setup(approval?: ApprovalAnswer) {
    const root = await realpath(await tempDir())
    const cwd = join(root, 'ws')
    await mkdir(cwd)
    await mkdir(join(root, 'out'))
    await symlink(join(root, 'out'), join(cwd, 'out-link'))
    const ctx = await createToolsContext()
    registerTool(ctx, stampTool)
    if (approval) {
      ctx.on('tools/pre-execute', () => ({ action: 'ask' as const }))
      ctx.provide('approval', { request: async () => approval })
    }
    return { ctx, root, cwd }
  }

  test('0011 TL-11 inside runs; ../x, an absolute outside path and a symlink out fail OUTSIDE_WORKSPACE and write nothing', async () => {
    const { ctx, root, cwd } = await setup()
    const ok = await ctx.tools.execute(call('stamp', { file_path: 'in/a.txt' }, { cwd }))
    expect(ok.isError).toBe(false)
    expect(existsSync(join(cwd, 'in', 'a.txt'))).toBe(true)
    for (const file_path of ['../x.txt', join(root, 'y.txt'), 'out-link/z.txt']) {
      const result = await ctx.tools.execute(call('stamp', { file_path }, { cwd }))
      expect(result.error?.code, file_path).toBe('OUTSIDE_WORKSPACE')
      expect(result.content[0]?.text, file_path).toContain('is outside the workspace')
    }
    expect(existsSync(join(root, 'x.txt'))).toBe(false)
    expect(existsSync(join(root, 'y.txt'))).toBe(false)
    expect(existsSync(join(root, 'out', 'z.txt'))).toBe(false)
  })

  test('0011 TL-11 an approved call may write outside', async () => {
    const { ctx, root, cwd } = await setup({ action: 'allow', by: 'user' })
    const result = await ctx.tools.execute(call('stamp', { file_path: '../x.txt' }, { cwd }))
    expect(result.isError).toBe(false)
    expect(existsSync(join(root, 'x.txt'))).toBe(true)
  })

  test('0011 a faulty paths declaration fails the call before the body', async () => {
    const ctx = await createToolsContext()
    let ran = false
    registerTool(
      ctx,
      defineTool({
        ...base,
        name: 'faulty',
        paths: () => {
          throw new Error('no idea')
        },
        execute: () => {
          ran = true
          return 'ran'
        },
      }),
    )
    const result = await ctx.tools.execute(call('faulty', {}))
    expect(result.error?.code).toBe('TOOL_FAILED')
    expect(result.content[0]?.text).toContain('the paths declaration of tool "faulty" threw: no idea')
    expect(ran).toBe(false)
  })
})

describe('0011 TL-35 an approver is told what the tool declares it does', () => {
  test('0011 TL-35 the request carries the declared access (write when none is declared), so an execute tool gets per-command session rules', async () => {
    const seen: Array<[string, string]> = []
    const ctx = await createToolsContext()
    const runner = defineTool({ ...base, name: 'python_exec', access: 'execute' })
    const undeclared = defineTool({ ...base, name: 'mystery' })
    registerTool(ctx, runner)
    registerTool(ctx, undeclared)
    ctx.on('tools/pre-execute', () => ({ action: 'ask' as const }))
    ctx.provide('approval', {
      request: async (req: ApprovalRequest) => {
        seen.push([req.exec.name, req.access])
        return { action: 'allow', by: 'user' } as const
      },
    })
    const cwd = await tempDir()
    for (const name of ['python_exec', 'mystery']) {
      expect((await ctx.tools.execute(call(name, { p: 'x' }, { cwd }))).isError).toBe(false)
    }
    expect(seen).toEqual([
      ['python_exec', 'execute'],
      ['mystery', 'write'],
    ])
  })
})
