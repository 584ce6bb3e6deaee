// The stdio servers the MCP bench configures: its own echo server (echo-server.ts, the default) or the
// reference server @modelcontextprotocol/server-everything (`--server everything`), each run with this
// Node (the repository's Node 24).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type ServerKind = 'echo' | 'everything'

export interface StdioServer {
  readonly type: 'stdio'
  readonly command: string
  readonly args: string[]
}

const require = createRequire(import.meta.url)

export function stdioServer(kind: ServerKind): StdioServer {
  if (kind === 'echo')
    return {
      type: 'stdio',
      command: process.execPath,
      args: [fileURLToPath(new URL('echo-server.ts', import.meta.url))],
    }
  const pkg = '@modelcontextprotocol/server-everything'
  const manifest = require(`${pkg}/package.json`) as { bin: Record<string, string> }
  const bin = join(
    dirname(require.resolve(`${pkg}/package.json`)),
    manifest.bin['mcp-server-everything'] as string,
  )
  return { type: 'stdio', command: process.execPath, args: [bin, 'stdio'] }
}

/** `count` servers named s1…sN, as `plugins.mcp.servers` holds them. */
export function serversMap(kind: ServerKind, count: number): Record<string, StdioServer> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i + 1}`, stdioServer(kind)]))
}

export function serverKindOf(value: string | undefined): ServerKind {
  if (value === undefined || value === 'echo' || value === 'everything') return value ?? 'echo'
  throw new Error(`--server must be echo or everything (got "${value}")`)
}
