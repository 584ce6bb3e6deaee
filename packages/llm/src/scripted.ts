// The `scripted` provider (AL-21): `--model scripted/<file.json>` plays script entries from a file,
// the same entry objects as `@tack/agent/testing` (`text`, `tool-calls`, `error`, `hang`, each with an
// optional `finishReason`), through the agent package's `play()`, so subprocess tests of the real
// binary need no HTTP server when they do not test the wire.
//
// State across processes: the position is kept in `<file>.cursor` ({"next": entry index, "calls":
// call ids issued}), advanced when a request takes an entry, so a process restarted after a crash
// continues with the next entry and never reuses a call id. Delete the cursor file to start over.
// Every request is appended as one JSON line to `<file>.requests.jsonl` for assertions.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { type LlmAdapter, LlmError, type LlmRequest } from '@tack/agent'
import type { ScriptEntry } from '@tack/agent/script'
import { lazy } from './providers/protocol.ts'

// Loaded on the first scripted request only; the player lives with the in-process scripted model.
const loadPlayer = lazy(() => import('@tack/agent/script'))

const FILE_KINDS = ['text', 'tool-calls', 'error', 'hang'] as const
const FINISH_REASONS = ['stop', 'tool-calls', 'length', 'content-filter', 'other']

export interface ScriptCursor {
  readonly next: number
  readonly calls: number
}

export function cursorPath(scriptFile: string): string {
  return `${scriptFile}.cursor`
}

export function requestsPath(scriptFile: string): string {
  return `${scriptFile}.requests.jsonl`
}

const invalid = (file: string, message: string) =>
  new LlmError(`scripted model ${file}: ${message}`, { code: 'SCRIPT_INVALID', transient: false })

/** Reads and checks a script file: a JSON array of entries, or `{"entries": [...]}`. */
export function loadScriptFile(file: string): ScriptEntry[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw invalid(file, `cannot read the script (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw invalid(file, `not JSON (${(error as Error).message})`)
  }
  const entries = Array.isArray(parsed) ? parsed : (parsed as { entries?: unknown } | null)?.entries
  if (!Array.isArray(entries)) throw invalid(file, 'expected an array of entries or {"entries": [...]}')
  entries.forEach((entry, i) => {
    checkEntry(entry, `entry ${i}`, file)
  })
  return entries as ScriptEntry[]
}

function checkEntry(entry: unknown, at: string, file: string): void {
  const e = entry as Record<string, unknown> | null
  if (!e || typeof e !== 'object' || Array.isArray(e)) throw invalid(file, `${at} is not an object`)
  const kind = e.kind
  if (!(FILE_KINDS as readonly unknown[]).includes(kind))
    throw invalid(file, `${at} has kind ${JSON.stringify(kind)} (allowed: ${FILE_KINDS.join(', ')})`)
  if (e.finishReason !== undefined && !FINISH_REASONS.includes(e.finishReason as string))
    throw invalid(file, `${at}.finishReason must be one of ${FINISH_REASONS.join(', ')}`)
  if (kind === 'text' && typeof e.text !== 'string') throw invalid(file, `${at}.text must be a string`)
  if (kind === 'error' && typeof e.message !== 'string') throw invalid(file, `${at}.message must be a string`)
  if (kind === 'tool-calls') {
    if (!Array.isArray(e.calls)) throw invalid(file, `${at}.calls must be an array`)
    e.calls.forEach((call: unknown, j: number) => {
      const c = call as Record<string, unknown> | null
      if (!c || typeof c.name !== 'string') throw invalid(file, `${at}.calls[${j}].name must be a string`)
      if (c.rawArguments !== undefined && typeof c.rawArguments !== 'string')
        throw invalid(file, `${at}.calls[${j}].rawArguments must be a string`)
    })
  }
}

export function readCursor(scriptFile: string): ScriptCursor {
  try {
    const c = JSON.parse(readFileSync(cursorPath(scriptFile), 'utf8')) as Partial<ScriptCursor>
    return {
      next: Number.isInteger(c.next) && (c.next as number) >= 0 ? (c.next as number) : 0,
      calls: Number.isInteger(c.calls) && (c.calls as number) >= 0 ? (c.calls as number) : 0,
    }
  } catch {
    return { next: 0, calls: 0 }
  }
}

/** Written to a temporary file and renamed, so a crash never leaves a torn cursor. */
function writeCursor(scriptFile: string, cursor: ScriptCursor): void {
  const target = cursorPath(scriptFile)
  const temporary = `${target}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(cursor))
  renameSync(temporary, target)
}

/** Serves `scripted/<file>`; a relative file is resolved against `cwd`. */
export function createScriptedFileAdapter(opts: { readonly cwd: string }): LlmAdapter {
  return {
    async stream(request: LlmRequest, signal: AbortSignal) {
      const model = request.config.model
      const name = model.slice(model.indexOf('/') + 1)
      const file = isAbsolute(name) ? name : resolve(opts.cwd, name)
      const { play } = await loadPlayer()
      // Synchronous from here to the cursor write: concurrent requests in one process (subagents)
      // each take a distinct entry.
      const entries = loadScriptFile(file)
      const cursor = readCursor(file)
      appendFileSync(requestsPath(file), `${JSON.stringify(request)}\n`)
      if (cursor.next >= entries.length)
        throw new LlmError(
          `the scripted model ${name} got request ${cursor.next + 1} but its script has ${entries.length} entries`,
          { code: 'SCRIPT_EXHAUSTED', transient: false },
        )
      let calls = cursor.calls
      const nextCallId = () => `call_${++calls}`
      try {
        return play(entries[cursor.next], signal, nextCallId)
      } finally {
        writeCursor(file, { next: cursor.next + 1, calls })
      }
    },
  }
}
