// The bench's stdio MCP server: one read-only tool, `echo {message}`, answering `Echo: <message>` as
// @modelcontextprotocol/server-everything's echo does, on the SDK's own Server and stdio transport, so
// its start is Node's plus the SDK's import and nothing else. It exits when its stdin closes.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'echo',
      description: 'Echoes back the input string',
      inputSchema: {
        type: 'object' as const,
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      },
      annotations: { readOnlyHint: true },
    },
  ],
}))
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text' as const, text: `Echo: ${String(request.params.arguments?.message ?? '')}` }],
}))
await server.connect(new StdioServerTransport())
