// The MCP plugin's validated Config (`plugins.mcp`). Every tunable has a default, a range checked at
// load and a README row; a server's own startupTimeoutMs/toolTimeoutMs override the plugin-wide ones.
import { type ConfigOf, ObjectSchema, Schema } from '@tack/kernel'
import { SERVER_TIMEOUT_MAX_MS, serversField } from './server-field.ts'

/** `stderrMaxBytes`'s default; also the bound of an early-spawned server's tail (early-spawn.ts). */
export const STDERR_MAX_BYTES_DEFAULT = 65_536

const fields = {
  servers: serversField,
  startupTimeoutMs: Schema.integer({
    default: 10_000,
    min: 1,
    max: SERVER_TIMEOUT_MAX_MS,
    description:
      "Milliseconds the first request waits for each server, counted from its spawn (all start in parallel at boot, and tack's own start goes on meanwhile); a server not ready by then is waited for no longer, and its tools join when it is (announced on stderr; the request prefix changes once). A server's own `startupTimeoutMs` overrides it.",
  }),
  connectTimeoutMs: Schema.integer({
    default: 60_000,
    min: 1,
    max: SERVER_TIMEOUT_MAX_MS,
    description:
      'Milliseconds a server may take to start and answer `initialize` at all; past it the start fails (one line on stderr) and is tried again on the next call of one of its tools.',
  }),
  toolTimeoutMs: Schema.integer({
    default: 300_000,
    min: 1,
    max: SERVER_TIMEOUT_MAX_MS,
    description:
      "Milliseconds one MCP tool call (or one read of an `@server:uri` mention's resource) may take; then the call fails `TIMEOUT` and the server is sent `notifications/cancelled`. A server's own `toolTimeoutMs` overrides it.",
  }),
  maxResultBytes: Schema.integer({
    default: 100_000,
    min: 1_024,
    max: 64 * 1024 * 1024,
    description:
      "UTF-8 bytes of one MCP tool result (or one mentioned resource) the model sees (about Claude Code's 25,000-token MCP output limit); the rest is cut and the result says so, naming this bound.",
  }),
  maxDescriptionChars: Schema.integer({
    default: 8_192,
    min: 256,
    max: 1_000_000,
    description:
      "Characters of one MCP tool's description sent to the model; past it the description is cut with a note naming this bound, so one server cannot fill every request.",
  }),
  maxInstructionsChars: Schema.integer({
    default: 8_192,
    min: 256,
    max: 1_000_000,
    description:
      "Characters of one server's `instructions` (from `initialize`) in the system prompt; past it they are cut with a note naming this bound.",
  }),
  maxMessageBytes: Schema.integer({
    default: 10 * 1024 * 1024,
    min: 65_536,
    max: 256 * 1024 * 1024,
    description:
      "Bytes of one message a stdio server may send (the MCP SDK's read buffer; its default). A message past it — a result of 50 MB, say — is not read: the call fails with a result naming this bound, the server is ended and started again on its next call.",
  }),
  stderrMaxBytes: Schema.integer({
    default: STDERR_MAX_BYTES_DEFAULT,
    min: 1_024,
    max: 16 * 1024 * 1024,
    description:
      "Bytes of a stdio server's stderr kept (the newest); its last line is shown when the server fails. Nothing of it is printed otherwise.",
  }),
  restartBackoffMs: Schema.integer({
    default: 1_000,
    min: 0,
    max: 600_000,
    description:
      'After a server crashed or failed to start, milliseconds before the next use may start it again; doubled after each further failure in a row, up to `restartBackoffMaxMs`, and reset by a successful start.',
  }),
  deferAbove: Schema.integer({
    default: 40,
    min: 0,
    max: 100_000,
    description:
      "Past this many MCP tools in all, none is sent to the model up front: `mcp_tool_search` is, and returns the matching tools' names, descriptions and input schemas, which are then offered from the next request on (logged, so a resumed session sends the same tools). 0 defers every MCP tool.",
  }),
  restartBackoffMaxMs: Schema.integer({
    default: 30_000,
    min: 0,
    max: 3_600_000,
    description: 'The longest wait between restarts of a server that keeps failing.',
  }),
}

export const McpConfig = new ObjectSchema(
  fields,
  'MCP servers: their tools as tack tools `mcp__<server>__<tool>` (@tack/mcp).',
  (value) =>
    value.restartBackoffMs > value.restartBackoffMaxMs
      ? [
          {
            path: 'restartBackoffMs',
            message: `must not exceed restartBackoffMaxMs (${value.restartBackoffMaxMs})`,
          },
        ]
      : [],
)
export type McpConfig = ConfigOf<typeof McpConfig>
