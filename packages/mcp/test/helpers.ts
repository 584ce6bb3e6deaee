// Test helpers: the plugin on a real tool registry, the real reference servers run with this Node
// (process.execPath, Node 24), calls through the registry's pipeline, result text.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ConfigInput } from '@tack/kernel'
import { blockText } from '@tack/session'
import type { ToolExecutionResult } from '@tack/tools'
import { callTool, createToolsContext } from '@tack/tools/testing'
import type { Context } from 'cordis'
import { afterEach } from 'vitest'
import type { McpConfig } from '../src/config.ts'
import type { McpServerDefinition } from '../src/definition.ts'
import { McpPlugin } from '../src/plugin.ts'

type StdioServer = Extract<McpServerDefinition, { type: 'stdio' }>

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))

/** A bin of an installed package, as a file Node runs. */
function binOf(pkg: string, bin: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin: Record<string, string> }
  return join(dirname(require.resolve(`${pkg}/package.json`)), manifest.bin[bin] as string)
}

export const everything = (): StdioServer => ({
  type: 'stdio',
  command: process.execPath,
  args: [binOf('@modelcontextprotocol/server-everything', 'mcp-server-everything'), 'stdio'],
})

export const filesystem = (root: string): StdioServer => ({
  type: 'stdio',
  command: process.execPath,
  args: [binOf('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem'), root],
})

/** The test's own stdio server (fixtures/server.ts), in one of its modes. */
export const fixture = (...args: string[]): StdioServer => ({
  type: 'stdio',
  command: process.execPath,
  args: [join(here, 'fixtures', 'server.ts'), ...args],
})

const loaded: Array<{ dispose(): unknown }> = []
afterEach(async () => {
  for (const fiber of loaded.splice(0)) await fiber.dispose()
})

/** A registry with the plugin loaded; its servers closed after the test. Returns the warnings too. */
export async function mcpContext(
  config: ConfigInput<typeof McpConfig>,
): Promise<{ ctx: Context; warnings: string[] }> {
  const ctx = await createToolsContext()
  const warnings: string[] = []
  ctx.logger.exporter({
    colors: false,
    export: (message: { type: string; name: string; args: unknown[] }) => {
      if (message.type === 'warn' && message.name === 'mcp')
        warnings.push(String(message.args[1] ?? message.args[0]))
    },
  } as never)
  loaded.push(await ctx.plugin(McpPlugin, config))
  // What the first prompt's `agent/prompt-submit` waits for (plugin.ts): the servers ready or past their bound.
  await ctx.mcp.ready
  return { ctx, warnings }
}

/** One call through the registry's pipeline (`@tack/tools/testing`). */
export const call = callTool

/** A result's words; an image as its note (`blockText`). */
export const textOf = (result: ToolExecutionResult): string => result.content.map(blockText).join('')

/** Whether a process of this user with `pid` still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
