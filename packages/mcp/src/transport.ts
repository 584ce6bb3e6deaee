// The SDK transport for one server definition (spec 55-mcp.md M1). A stdio server gets a minimal
// environment — the SDK's documented default (HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX) less
// any variable declared secret in `ctx.secrets`, plus the server's own `env` — never tack's whole
// environment with the provider keys; its stderr is piped into a bounded tail, never printed.
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerDefinition } from './definition.ts'
import type { StderrTail } from './stderr-tail.ts'

/** The environment a stdio server starts with. */
export function serverEnvironment(
  own: Record<string, string> | undefined,
  secretVariables: readonly string[],
): Record<string, string> {
  const env: Record<string, string | undefined> = getDefaultEnvironment()
  // undefined, not deleted: the SDK spreads its defaults under ours, and Node's spawn drops undefined.
  for (const name of secretVariables) env[name] = undefined
  return { ...env, ...own } as Record<string, string>
}

export interface OpenedTransport {
  readonly transport: Transport
  /** The child's pid for a stdio server, once started. */
  pid(): number | undefined
}

export function openTransport(
  def: McpServerDefinition,
  secretVariables: readonly string[],
  stderr: StderrTail,
  maxMessageBytes: number,
): OpenedTransport {
  switch (def.type) {
    case 'stdio': {
      const transport = new StdioClientTransport({
        command: def.command,
        ...(def.args ? { args: def.args } : {}),
        env: serverEnvironment(def.env, secretVariables),
        ...(def.cwd ? { cwd: def.cwd } : {}),
        stderr: 'pipe',
        maxBufferSize: maxMessageBytes,
      })
      transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk))
      return { transport, pid: () => transport.pid ?? undefined }
    }
    case 'http':
      return {
        transport: new StreamableHTTPClientTransport(new URL(def.url), {
          requestInit: { headers: def.headers ?? {} },
        }),
        pid: () => undefined,
      }
    case 'sse':
      return {
        transport: new SSEClientTransport(new URL(def.url), { requestInit: { headers: def.headers ?? {} } }),
        pid: () => undefined,
      }
    default:
      return def satisfies never
  }
}
