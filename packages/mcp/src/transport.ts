// The SDK transport for one server definition (spec 55-mcp.md M1). A stdio server runs in its own
// process group (server-process.ts, stdio-transport.ts), with the environment of server-env.ts; its
// stderr is piped into a bounded tail, never printed. A server spawned early in the boot
// (early-spawn.ts) is taken over rather than spawned again — synchronously, at the call, so the plugin's
// sweep of untaken early servers (right after it starts its set) never ends one a connection wants.
// The HTTP and SSE transports (their auth and event-source code) are imported only for such a server:
// a run with stdio servers alone does not load them (docs/decisions/0240-mcp-early-start.md).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerDefinition } from './definition.ts'
import { takeEarlyServer } from './early-spawn.ts'
import { serverEnvironment } from './server-env.ts'
import { ServerProcess } from './server-process.ts'
import type { StderrTail } from './stderr-tail.ts'
import { GroupStdioTransport } from './stdio-transport.ts'

export { serverEnvironment }

export interface OpenedTransport {
  readonly transport: Transport
  /** The child's pid for a stdio server, once started. */
  pid(): number | undefined
}

export async function openTransport(
  name: string,
  def: McpServerDefinition,
  secretVariables: readonly string[],
  stderr: StderrTail,
  maxMessageBytes: number,
): Promise<OpenedTransport> {
  // No `await` before the stdio case returns: an async function runs synchronously up to its first one.
  switch (def.type) {
    case 'stdio': {
      const command = {
        command: def.command,
        ...(def.args ? { args: def.args } : {}),
        env: serverEnvironment(def.env, secretVariables),
        ...(def.cwd ? { cwd: def.cwd } : {}),
      }
      const process = takeEarlyServer(name, command, stderr) ?? new ServerProcess(command, stderr)
      const transport = new GroupStdioTransport(process, maxMessageBytes)
      return { transport, pid: () => transport.pid }
    }
    case 'http': {
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      )
      const transport = new StreamableHTTPClientTransport(new URL(def.url), {
        requestInit: { headers: def.headers ?? {} },
      })
      return { transport, pid: () => undefined }
    }
    case 'sse': {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
      const transport = new SSEClientTransport(new URL(def.url), {
        requestInit: { headers: def.headers ?? {} },
      })
      return { transport, pid: () => undefined }
    }
    default:
      return def satisfies never
  }
}
