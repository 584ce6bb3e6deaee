// Sets up `tack run`'s stderr reporting (issue 10 item 3): the live line on a terminal, one line per
// tool call otherwise, none of it with --json (whose stdout is the record); -v diagnostics in every mode.
// A failed call keeps its line on a terminal too, and the run ends with a summary (plugins.run,
// docs/decisions/0310-failures-stay-visible.md).
// Every other stderr line of the run goes through `err`, so it is printed above the live line.
import type { Context } from 'cordis'
import type { CommonFlags } from '../args.ts'
import type { CommandIO } from '../io.ts'
import { createReporter, type Reporter } from '../progress/reporter.ts'
import { colourWanted, plainSink, styles, terminalSink } from '../progress/status-line.ts'
import { runProgressConfig } from '../progress/config.ts'
import type { Settings } from '../config/load.ts'
import type { Resolved } from '../settings.ts'

export interface RunProgress {
  readonly reporter: Reporter
  /** Writes stderr text (one or more whole lines) without tearing the live line. */
  err(text: string): void
}

export function runProgress(io: CommandIO, flags: CommonFlags, settings: Settings): RunProgress {
  const config = runProgressConfig(settings.plugins.run)
  const columns = io.stderrColumns?.()
  const terminal = columns !== undefined && flags.json !== true
  const sink = terminal
    ? terminalSink(io.err, { columns: () => io.stderrColumns?.() ?? columns })
    : plainSink(io.err)
  const reporter = createReporter({
    sink,
    styles: styles(colourWanted(io.env, terminal)),
    verbose: flags.verbose === true,
    progress: flags.json !== true,
    failureTailLines: config.failureTailLines,
    summary: config.summary,
  })
  const err = (text: string) => {
    for (const line of text.replace(/\n$/, '').split('\n')) sink.line(line)
  }
  return { reporter, err }
}

/** -v: where the settings came from and what serves the model (the permission mode: permission-report.ts, once the session is open). */
export function diagnoseSettings(
  reporter: Reporter,
  resolved: Resolved,
  model: string,
  served?: string,
): void {
  const { settings, trust, cwd } = resolved
  reporter.diagnostic(
    `config files: ${settings.files.length ? settings.files.join(', ') : 'none (built-in defaults)'}`,
  )
  reporter.diagnostic(`workspace: ${cwd} (${trust.trusted ? 'trusted' : 'not trusted'})`)
  reporter.diagnostic(`model: ${model}${served ? ` — ${served}` : ''}`)
}

/** What serves `model`, for -v: the provider kind, base URL and where it came from, the key variable (never its value). */
export function servedBy(ctx: Context, model: string): string | undefined {
  try {
    const r = ctx.llmProviders.resolve(model)
    if (r.kind === 'scripted') return `scripted file ${r.modelId}`
    const url = r.baseUrl
      ? `${r.baseUrl}${r.baseUrlSource ? ` (from ${r.baseUrlSource})` : ''}`
      : 'the provider default URL'
    const key = r.apiKeyEnv ? `, key from ${r.apiKeyEnv} (${r.keyPresent ? 'set' : 'not set'})` : ''
    return `${r.kind} at ${url}${key}, context window ${r.contextWindow} tokens`
  } catch {
    return undefined
  }
}
