// The YAML parser's message for a broken file is several lines: the reason, then a code frame of the
// offending line with a caret. tack's errors are one line (a person reads it on stderr, a script greps
// it), so the frame is dropped and its position kept in the compiler-style `file:line:column:` prefix.
import { ConfigError } from '@tack/kernel'

/** What the `yaml` package's parse error carries (its class is not imported: the parser loads lazily). */
interface YamlParseFailure {
  readonly message: string
  readonly linePos?: readonly { readonly line: number; readonly col: number }[]
}

/** A config file that is not valid YAML: still a ConfigError (exit 2), but its message is one line. */
export class ConfigSyntaxError extends ConfigError {
  constructor(file: string, cause: unknown) {
    const failure = cause as YamlParseFailure
    const reason = parserReason(failure.message ?? String(cause))
    super([{ path: '', message: `cannot read YAML: ${reason}` }], file)
    const at = failure.linePos?.[0]
    this.message = `${file}${at ? `:${at.line}:${at.col}` : ''}: cannot read YAML: ${reason}`
  }
}

/** The parser's reason without its ` at line L, column C:` suffix and code frame, on one line. */
function parserReason(message: string): string {
  return message
    .replace(/ at line \d+, column \d+:[\s\S]*$/, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
}
