// Warnings reach a person (overview decision 9, issue 9 item 8): plugins warn through cordis's logger
// (`ctx.logger(name).warn(…)`), which prints nothing by itself. This exporter writes warnings and errors
// to stderr as `tack: <plugin>: <message>` (info too with -v), each distinct line once per run, its
// control characters escaped (printable.ts).
import { type Context, Logger } from 'cordis'
import { printable } from './printable.ts'

export function printWarnings(ctx: Context, write: (line: string) => void, verbose: boolean): void {
  const printed = new Set<string>()
  const exporter = {
    colors: false as const,
    export(message: { type: string; name: string; args: unknown[] }) {
      if (message.type === 'debug' || (message.type === 'info' && !verbose)) return
      // A store that cannot open is reported by boot in one line with its fix; cordis's log of the same
      // failure would say it twice (-v keeps it).
      if (!verbose && message.args.some(isStoreError)) return
      const formatted = Logger.format(exporter, message as Parameters<typeof Logger.format>[1])
      // A plugin that fails to load is logged by cordis with its stack; a person gets the message (boot
      // names the failure again with its fix); -v keeps the frames for a bug report.
      const text = verbose ? formatted : withoutStackFrames(formatted)
      // a hook's stderr, a file name, a plugin's message: text a repository controls, shown escaped
      const line = printable(`tack: ${message.name}: ${text}`)
      if (printed.has(line)) return
      printed.add(line)
      write(`${line}\n`)
    },
  }
  ctx.logger.exporter(exporter)
}

/** The stores' own errors (they name the file or database and the fix: boot prints them). */
function isStoreError(value: unknown): boolean {
  const name = (value as Error | null)?.name
  return name === 'SqliteStoreError' || name === 'PostgresStoreError'
}

/** `text` without the `    at …` lines of a stack trace. */
export function withoutStackFrames(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
}
