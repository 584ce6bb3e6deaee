// The validated Config of AcpPlugin (50-acp.md requirement 11 and the client terminal's limits).
import { type ConfigOf, Schema } from '@tack/kernel'

export const AcpConfig = Schema.object({
  clientTerminal: Schema.boolean({
    default: true,
    description:
      "Run the bash tool in the client's terminal when the client offers one (the editor then shows it live). The command then runs outside tack's bash sandbox, as the editor runs it.",
  }),
  terminalTimeoutMs: Schema.integer({
    default: 120_000,
    min: 1_000,
    max: 3_600_000,
    description:
      'Timeout of a bash call in a client terminal when the call gives none (`timeout_ms`); on expiry the command is killed.',
  }),
  terminalOutputBytes: Schema.integer({
    default: 1_048_576,
    min: 1_024,
    max: 67_108_864,
    description:
      'How much output a client terminal keeps for the model (`outputByteLimit`); the end is kept.',
  }),
  maxMessageBytes: Schema.integer({
    default: 33_554_432,
    min: 65_536,
    max: 1_073_741_824,
    description:
      'The largest message (one line) tack acp reads from the client; a longer one is dropped as it arrives, answered with a JSON-RPC parse error (-32700) and named on stderr, and the server goes on. Bounds the memory one message can take; the default is the ACP SDK’s own limit.',
  }),
})

export type AcpConfig = ConfigOf<typeof AcpConfig>
