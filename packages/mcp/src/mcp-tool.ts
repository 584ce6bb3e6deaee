// One MCP tool as a tack tool (spec 55-mcp.md M3, M4): its description and input schema from the
// server (input-schema.ts), access from its annotations (access.ts), its calls sent through the
// server's connection with the per-call timeout, its place in Code Mode's SDK (M9), and its result
// turned into content for the model (result-content.ts: text, and images as image blocks) — an
// `isError` result or a JSON-RPC error as an error result with the server's text.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { ToolFailure, type ToolDefinition } from '@tack/tools'
import { accessOf, isDestructive, kindOf } from './access.ts'
import type { McpConnection } from './connection.ts'
import { cutToBytes, cutToChars } from './cut.ts'
import { errorText } from './error-text.ts'
import { McpMessageTooLarge } from './message-bound.ts'
import { isSignInNeeded, SignInNeededError } from './sign-in.ts'
import { projectInputSchema } from './input-schema.ts'
import { hostView, mcpToolHosts } from './mcp-host.ts'
import { resultContent, resultText } from './result-content.ts'

export interface McpToolOptions {
  readonly name: string
  readonly server: string
  readonly tool: Tool
  readonly connection: McpConnection
  readonly toolTimeoutMs: number
  readonly maxResultBytes: number
  readonly maxDescriptionChars: number
  /** Offered only once `mcp_tool_search` loads it (past `deferAbove` tools, spec 55-mcp.md M11). */
  readonly deferred: boolean
}

/** How much longer the SDK waits than the pipeline: the pipeline's TIMEOUT is the one the model sees. */
const SDK_TIMEOUT_SLACK_MS = 1_000

export function mcpTool(options: McpToolOptions): ToolDefinition {
  const { server, tool, connection, maxResultBytes } = options
  const access = accessOf(tool.annotations)
  const schema = projectInputSchema(tool.inputSchema)
  const own = cutToChars(
    tool.description ?? tool.title ?? '',
    options.maxDescriptionChars,
    'maxDescriptionChars',
  )
  const description = [own, schema.note].filter(Boolean).join('\n\n')
  const title = `${server}: ${tool.title ?? tool.annotations?.title ?? tool.name}`
  return {
    name: options.name,
    description,
    parameters: schema.parameters,
    timeoutMs: options.toolTimeoutMs,
    access,
    ...(isDestructive(tool.annotations) ? { alwaysAsk: true } : {}),
    ...(options.deferred ? { deferred: true } : {}),
    present: { kind: kindOf(access), title: () => title },
    // Claude Code's and Codex's hooks see it under this name, its arguments as sent (55-mcp.md M8).
    host: mcpToolHosts(options.name),
    // Code Mode (spec 55-mcp.md M9): `tools.mcp.<server>.<tool>(args)`, called under this tool's own name;
    // with an output schema the result text is the structured content's JSON, so the program gets it typed.
    sdk: {
      path: ['mcp', server, tool.name],
      ...(isObject(tool.outputSchema) ? { result: tool.outputSchema as ToolDefinition['parameters'] } : {}),
    },
    async execute(args, call) {
      let result: Awaited<ReturnType<McpConnection['call']>>
      try {
        result = await connection.call(
          tool.name,
          args as Record<string, unknown>,
          call.signal,
          options.toolTimeoutMs + SDK_TIMEOUT_SLACK_MS,
          // Progress notifications reach the people watching (the call's card), never the model.
          call.progress &&
            ((p) =>
              call.progress?.({
                progress: p.progress,
                ...(p.total !== undefined && { total: p.total }),
                ...(p.message !== undefined && { message: p.message }),
              })),
        )
      } catch (error) {
        throw callFailure(server, error)
      }
      const cut = (text: string) => cutToBytes(text, maxResultBytes)
      const view = hostView(result, maxResultBytes)
      if (result.isError === true) {
        const text = cut(resultText(result))
        throw new ToolFailure('MCP_TOOL_ERROR', text, {
          content: text,
          ...(view ? { meta: { mcp: view } } : {}),
        })
      }
      const content = resultContent(result, cut)
      return view ? { content, meta: { mcp: view } } : content
    },
  }
}

const isObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A call that got no result: the server's JSON-RPC error, or the server gone (it restarts on the next call). */
function callFailure(server: string, error: unknown): ToolFailure {
  if (error instanceof McpMessageTooLarge) return new ToolFailure('MCP_RESULT_TOO_LARGE', error.message)
  // A 401 on a call (a token that expired) or on the restart before it: what to do, not the HTTP error.
  if (isSignInNeeded(error))
    return new ToolFailure(
      'MCP_SIGN_IN_NEEDED',
      `MCP server "${server}": ${new SignInNeededError(server).message}`,
    )
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return new ToolFailure(
      'MCP_SERVER_EXITED',
      `The MCP server "${server}" exited during the call, so it has no result (${errorText(error)}). It is started again on the next call.`,
    )
  if (error instanceof McpError)
    return new ToolFailure('MCP_ERROR', `MCP server "${server}": ${errorText(error)}`)
  return new ToolFailure(
    'MCP_UNAVAILABLE',
    `MCP server "${server}" could not take the call: ${errorText(error)}`,
  )
}
