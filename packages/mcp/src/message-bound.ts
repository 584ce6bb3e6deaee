// The bound on one message from a stdio server (`plugins.mcp.maxMessageBytes`, spec 55-mcp.md "Bad
// input"). The SDK's read buffer enforces it: past it the SDK reports an error and closes the
// transport, so the server is ended and the calls in flight lose their answer. This names that case,
// so the person and the model are told the message was too large, not that the server exited.

/** The SDK's read-buffer overflow (`ReadBuffer exceeded maximum size of N bytes`). */
export function isMessageOverflow(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('ReadBuffer exceeded maximum size')
}

/** A call whose answer was past the bound: the server was ended unread and starts again on next use. */
export class McpMessageTooLarge extends Error {
  override readonly name = 'McpMessageTooLarge'
  constructor(server: string, limit: number) {
    super(
      `The MCP server "${server}" answered with a message over ${limit} bytes (plugins.mcp.maxMessageBytes), which tack does not read, so the call has no result. The server was ended; it is started again on the next call.`,
    )
  }
}
