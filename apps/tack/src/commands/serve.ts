// `tack serve [--port N] [--host H]` (95-fleet.md F5, docs/decisions/0360-web-view.md): the web view of
// this machine's sessions — whatever store the configuration selects — served until Ctrl-C. The
// conversation is the TUI's own projection of the log, with calls presented by the tools' own
// declarations (an edit's applied hunks, a command's output), so tack boots its tools here, but none of
// what would act: no MCP server starts, no hook or checkpoint or user plugin loads.
import { parseArgs } from 'node:util'
import type { Presenter } from '@tack/tools'
import type { JobSource } from '@tack/web'
import { UsageError } from '../args.ts'
import { boot } from '../boot.ts'
import { CommandError } from '../errors.ts'
import type { Settings } from '../config/load.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import { createRedactor } from '../secrets.ts'
import { resolveSettings } from '../settings.ts'
import { storeReadSecrets } from '../store-read-secrets.ts'
import { storeUrl } from '../store-url.ts'

export const SERVE_USAGE =
  'usage: tack serve [--port N] [--host ADDRESS] [--cwd DIR] [--config FILE] [--profile NAME]'

export const SERVE_HELP = `${SERVE_USAGE}

  a web view of the sessions in the configured session store, live, until Ctrl-C
  --port N          TCP port (default plugins.serve.port, 7433; 0 picks a free one)
  --host ADDRESS    address to listen on (default plugins.serve.host, 127.0.0.1). Any address that is
                    not loopback requires a bearer token: $TACK_SERVE_TOKEN (plugins.serve.tokenEnv), or
                    one generated now and printed once in the address to open
`

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  cwd: { type: 'string' },
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Plugins that would act (start servers, run hooks, snapshot files) rather than describe tools. */
const NOT_FOR_VIEWING = ['mcp', 'hooksClaude', 'hooksCodex', 'checkpoints', 'instructions'] as const

export async function serveCommand(argv: readonly string[], terminal: CommandIO): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values
  } catch (error) {
    throw new UsageError(`serve: ${(error as Error).message.split(/\.\s/)[0]} (${SERVE_USAGE})`)
  }
  if (values.help) {
    terminal.out(SERVE_HELP)
    return 0
  }
  const io = printableIO(terminal)
  const flags = {
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
  }
  const { settings, paths, cwd, trust } = await resolveSettings(flags, io.env, io.cwd)
  const web = await import('@tack/web')
  const config = web.serveConfig(settings.plugins.serve)
  const host = values.host ?? config.host
  if (host === '') throw new UsageError('serve: --host needs an address')
  const port = values.port !== undefined ? portFlag(values.port) : config.port
  const booted = await boot({
    settings: viewingSettings(settings),
    paths,
    env: io.env,
    cwd,
    trust,
    warn: io.err,
  })
  let server: Awaited<ReturnType<typeof web.startWebServer>> | undefined
  let jobs: JobSource | undefined
  // Listened for before the address is printed: a signal right after it still ends the serve cleanly.
  const stopped = stopSignal()
  try {
    const { contextWindowOf, costOf } = await import('@tack/llm/catalog')
    const presenter =
      (booted.ctx.get('tools') as Presenter | undefined) ?? (await import('@tack/tools')).plainPresenter
    // The fleet's jobs live in the sessions' PostgreSQL database; with the SQLite file there are none.
    const database = storeUrl(settings, io.env)
    if (database) {
      const { fleetJobSource } = await import('./serve-jobs.ts')
      // The sessions are still worth showing when the jobs cannot be read (a user without rights on the
      // fleet's tables): one line says why, and the page says jobs are not connected.
      jobs = await fleetJobSource(database.url, (line) => io.err(`tack serve: ${line}\n`)).catch(
        (error: unknown) => {
          io.err(
            `tack serve: the fleet's jobs cannot be read: ${error instanceof Error ? error.message : String(error)}\n`,
          )
          return undefined
        },
      )
    }
    // The page is output: the log's values are redacted from what it is sent, as from `tack sessions`.
    const redact = createRedactor(io.env)
    const secrets = storeReadSecrets(settings.plugins, paths.envFile, booted.ctx.secrets)
    redact.protect(secrets.names, secrets.values)
    terminal.protectSecrets?.(secrets.names, secrets.values) // its own lines on stderr too
    const { token, generated } = tokenFor(web, host, io.env[config.tokenEnv])
    server = await listenOrSay(host, port, () =>
      web.startWebServer({
        store: booted.ctx.sessionStore,
        projection: { presenter, pricing: { costOf, contextWindowOf } },
        host,
        port,
        pollMs: config.pollMs,
        redact,
        ...(token !== undefined ? { token } : {}),
        ...(jobs ? { jobs } : {}),
      }),
    )
    // The one place a generated token is shown: the address to open, which sets it as a cookie.
    if (generated) terminal.out(`tack serve: ${server.url}?token=${token}\n`)
    else io.out(`tack serve: ${server.url}\n`)
    if (token !== undefined && !generated) io.err(`tack serve: the token is $${config.tokenEnv}'s value\n`)
    io.err(
      jobs
        ? "tack serve: jobs from the fleet in the sessions' database; Ctrl-C stops\n"
        : 'tack serve: jobs are not connected (the sessions are in the SQLite file, not a fleet database); Ctrl-C stops\n',
    )
    await stopped
    return 0
  } finally {
    await server?.close()
    await jobs?.close?.()
    await booted.close()
  }
}

/** The server, or one line saying why the address cannot be listened on (taken, not this machine's). */
async function listenOrSay<T>(host: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start()
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'EADDRINUSE')
      throw new CommandError(`serve: ${host}:${port} is in use (--port N picks another, 0 any free one)`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES')
      throw new CommandError(`serve: cannot listen on ${host}:${port} (${String(code)})`)
    throw error
  }
}

function portFlag(text: string): number {
  const n = Number(text)
  if (!/^\d+$/.test(text) || n > 65_535)
    throw new UsageError(`serve: --port must be an integer from 0 to 65535 (got "${text}")`)
  return n
}

/** The token a non-loopback address requires: the configured variable's value, else a new one. */
function tokenFor(
  web: typeof import('@tack/web'),
  host: string,
  fromEnv: string | undefined,
): { token?: string; generated: boolean } {
  if (web.isLoopback(host)) return { generated: false }
  if (fromEnv !== undefined && fromEnv !== '') return { token: fromEnv, generated: false }
  return { token: web.newToken(), generated: true }
}

/** The settings with every plugin that would act turned off: the view only reads. */
function viewingSettings(settings: Settings): Settings {
  const plugins: Record<string, Record<string, unknown> | false> = { ...settings.plugins }
  for (const key of NOT_FOR_VIEWING) plugins[key] = false
  return { ...settings, plugins, userPlugins: [] }
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
