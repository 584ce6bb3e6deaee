// The reference MCP server (@modelcontextprotocol/server-everything) for tests that run the real binary:
// where its entry is, and a --config file that names it (and any other servers) in `plugins.mcp.servers`.
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { writeLoopConfig } from './helpers.ts'

const require = createRequire(import.meta.url)

export const everythingBin = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
)

/** server-everything over stdio, as a `plugins.mcp.servers` entry. */
export const everythingServer = { type: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'] }

/** A stdio server that says "missing token" on stderr and exits at once (a server that does not start). */
export const brokenServer = {
  type: 'stdio',
  command: process.execPath,
  args: ['-e', 'console.error("missing token"); process.exit(1)'],
}

/**
 * Writes the loop config (writeLoopConfig) for the loopback server at `baseUrl` (any URL when no model is
 * asked) with `everything` and the `extra` servers under `plugins.mcp.servers`; returns its path.
 */
export async function writeMcpConfig(
  root: string,
  baseUrl: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const config = await writeLoopConfig(root, baseUrl)
  const servers = { everything: everythingServer, ...extra }
  await writeFile(
    config,
    `${await readFile(config, 'utf8')}  mcp:\n    servers: ${JSON.stringify(servers)}\n`,
  )
  return config
}
