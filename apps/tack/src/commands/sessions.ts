// `tack sessions list|show|export|fork|rm|import` over the session store. Every id may be a unique
// prefix (session-ref.ts); `list` shows each session's summary, newest activity first.
import type { SessionEvent } from '@tack/session'
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import { boot } from '../boot.ts'
import { type CommandIO, outputRedactor } from '../io.ts'
import { cut, findSession, newestFirst } from '../session-ref.ts'
import { resolveSettings } from '../settings.ts'
import { storeReadSecrets } from '../store-read-secrets.ts'
import { printable, printableIO } from '../printable.ts'
import { recutAll } from '../chunk-redaction.ts'
import { exportMarkdown } from './export-markdown.ts'

export async function sessionsCommand(args: string[], flags: CommonFlags, io: CommandIO): Promise<number> {
  const [sub, id] = args
  const { settings, paths, cwd, trust } = await resolveSettings(flags, io.env, io.cwd)
  // The Claude transcript names each tool as its definition declares (`host.claude`), so that
  // export loads the profile's tools; every other subcommand needs only the store.
  const needsTools = sub === 'export' && flags.format === 'claude-transcript'
  const booted = await boot({ settings, paths, env: io.env, cwd, trust, storeOnly: !needsTools })
  const { ctx } = booted
  const secrets = storeReadSecrets(settings.plugins, paths.envFile, ctx.secrets)
  io.protectSecrets?.(secrets.names, secrets.values)
  // Before a text is cut or flattened for a line: a cut secret would no longer match on the way out.
  const redact = outputRedactor(io)
  const named = (ref: string | undefined, sub: string) => namedIn(ctx.sessions, ref, sub, redact)
  try {
    switch (sub) {
      case 'list': {
        const list = newestFirst(await ctx.sessions.list())
        if (flags.json) {
          io.out(`${JSON.stringify(list)}\n`)
          return 0
        }
        if (list.length === 0) {
          io.out('no sessions\n')
          return 0
        }
        // a first prompt may hold text pasted from a hostile file, a workspace path any name
        const out = printableIO(io).out
        for (const s of list) {
          const origin = s.parentSession
            ? s.seedLength !== undefined
              ? `  (fork of ${s.parentSession})`
              : `  (subagent of ${s.parentSession})`
            : ''
          out(
            `${s.id}  ${s.lastTime ?? s.createdAt}  ${String(s.turns).padStart(3)} turn(s)  ${s.model ?? '(no model yet)'}  ${s.cwd}${origin}\n` +
              `    ${s.firstPrompt !== undefined ? JSON.stringify(cut(redact(s.firstPrompt), 72)) : '(no prompt)'}\n`,
          )
        }
        return 0
      }
      case 'show': {
        // A plain store read, not `ctx.sessions.open`: showing a session must not make this process its
        // writer, nor close the open turn of a tack that is still running it (issue 9.5).
        const { events } = await ctx.sessionStore.load(await named(id, 'show'))
        // Streamed chunks repeat what their assistant/message holds: it is shown once, there.
        for (const e of events)
          if (e.type !== 'assistant/chunk')
            printableIO(io).out(`${String(e.seq).padStart(5)}  ${e.type.padEnd(22)} ${summary(e, redact)}\n`)
        return 0
      }
      case 'export': {
        const { header, events } = await ctx.sessionStore.load(await named(id, 'export'))
        const format = flags.format ?? 'jsonl'
        if (format === 'jsonl') {
          io.out(`${JSON.stringify({ type: 'session/header', header })}\n`)
          // Streamed deltas are re-cut so a secret split across two is redacted (chunk-redaction.ts).
          for (const e of recutAll(events, redact)) io.out(`${JSON.stringify(e)}\n`)
        } else if (format === 'markdown') {
          io.out(exportMarkdown(header, events))
        } else if (format === 'claude-transcript') {
          const { exportClaudeTranscript } = await import('./export-claude.ts')
          io.out(await exportClaudeTranscript(header, events, ctx.get('tools')))
        } else {
          throw new UsageError(`--format must be jsonl, claude-transcript or markdown (got "${format}")`)
        }
        return 0
      }
      case 'import': {
        if (!id) throw new UsageError('tack sessions import needs a jsonl file (or - for stdin)')
        const { importSession } = await import('./sessions-import.ts')
        io.out(`${await importSession(ctx.sessionStore, id, io)}\n`)
        return 0
      }
      case 'fork': {
        const at = flags.at !== undefined ? Number(flags.at) : undefined
        if (at !== undefined && !Number.isInteger(at))
          throw new UsageError(`--at must be an integer sequence number (got "${flags.at}")`)
        const child = await ctx.sessions.fork(await named(id, 'fork'), at !== undefined ? { atSeq: at } : {})
        io.out(`${child.id}\n`)
        return 0
      }
      case 'rm': {
        const full = await named(id, 'rm')
        await ctx.sessionStore.remove(full)
        // The session's bash spill files go with it (issue 12.7), from wherever bash writes them.
        const bash = settings.plugins.bash
        const configured = bash && typeof bash === 'object' ? bash.scratchRoot : undefined
        const { removeSessionScratch } = await import('@tack/tool-bash')
        await removeSessionScratch(typeof configured === 'string' ? configured : paths.scratch, full)
        io.out(`removed ${full}\n`)
        return 0
      }
      default:
        throw new UsageError(
          'usage: tack sessions list | show <id> | export <id> [--format …] | fork <id> [--at SEQ] | rm <id> | import <file> (see tack sessions --help)',
        )
    }
  } catch (error) {
    // The store's refusals carry a code (SESSION_NOT_FOUND, BAD_FORK_POINT, NOT_JSON, …): one line, exit 1.
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) {
      io.err(`tack: ${printable((error as Error).message)}\n`)
      return 1
    }
    throw error
  } finally {
    await booted.close()
  }
}

/** The full id `ref` names (a unique prefix is enough); a usage error when it is missing. */
async function namedIn(
  sessions: Parameters<typeof findSession>[0],
  ref: string | undefined,
  sub: string,
  redact: (text: string) => string,
) {
  if (!ref) throw new UsageError(`tack sessions ${sub} needs a session id (see tack sessions list)`)
  return (await findSession(sessions, ref, redact)).id
}

function summary(e: SessionEvent, redact: (text: string) => string): string {
  const d = e.data as Record<string, unknown>
  const content = d.content as ReadonlyArray<{ type: string; text?: string; name?: string }> | undefined
  if (Array.isArray(content)) {
    const text = content.map((b) => b.text ?? (b.type === 'tool-call' ? `[call ${b.name}]` : '')).join(' ')
    return oneLine(redact(text))
  }
  if (e.type === 'tool/call') return `${d.name} ${oneLine(redact(String(d.arguments)))}`
  if (e.type === 'turn/end') return JSON.stringify(d.reason)
  return oneLine(redact(JSON.stringify(d)))
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim()
  return flat.length > 100 ? `${flat.slice(0, 97)}…` : flat
}
