// A tool's `sdk` declaration (types.ts ToolSdkDeclaration, TL-21): the SDK section declares it under its
// path, with a result type when it names one, and a place two tools want goes to the first in name order.
import { expect, it } from 'vitest'
import { defineTool } from '../../src/define-tool.ts'
import { sdkLayout } from '../../src/code-mode/sdk-layout.ts'
import { sdkSectionText } from '../../src/code-mode/sdk.ts'
import type { ToolDefinition } from '../../src/types.ts'

const tool = (name: string, sdk?: ToolDefinition['sdk']) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    execute: () => '',
    ...(sdk ? { sdk } : {}),
  }) as ToolDefinition

it('a declared path nests the tool, and a declared result schema types what it resolves to', () => {
  const text = sdkSectionText([
    tool('alpha'),
    tool('mcp__s__get', {
      path: ['mcp', 's', 'get'],
      result: { type: 'object', properties: { v: { type: 'string' } } },
    }),
  ])
  expect(text).toContain('  alpha(args: {\n    n: number\n  }): Promise<string>')
  expect(text).toContain('  mcp: {\n    s: {\n')
  expect(text).toContain(
    '      get(args: {\n        n: number\n      }): Promise<{\n        v?: string\n      }>',
  )
})

it('a place already taken (or inside a tool) goes to the later tool’s own name', () => {
  const layout = sdkLayout([
    tool('a_tool', { path: ['x', 'y'] }),
    tool('b_tool', { path: ['x', 'y'] }),
    tool('c_tool', { path: ['x', 'y', 'z'] }),
    tool('d_tool', { path: ['x'] }),
  ])
  expect(layout.map((m) => m.place.path)).toEqual([['x', 'y'], ['b_tool'], ['c_tool'], ['d_tool']])
})

it('an sdk path that is empty or holds an empty part is refused at definition', () => {
  expect(() => tool('bad_tool', { path: [] })).toThrow(/sdk.path must be a non-empty array/)
  expect(() => tool('bad_tool', { path: ['mcp', ''] })).toThrow(/sdk.path must be a non-empty array/)
})
