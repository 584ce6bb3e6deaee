// `tack sessions import FILE|-` (issue 10 item 8): a jsonl export back into the store. Every way it can
// fail — no file, not JSON, not an export, an id the store already holds, events the store refuses — is
// one line naming the file (and line) with exit 1; a refused import leaves no half-made session behind.
import { readFile } from 'node:fs/promises'
import type {} from '@tack/permissions'
import type { SessionEvent, SessionHeader, SessionStore } from '@tack/session'
import { CommandError } from '../errors.ts'
import type { CommandIO } from '../io.ts'

export async function importSession(store: SessionStore, file: string, io: CommandIO): Promise<string> {
  const name = file === '-' ? 'stdin' : file
  let text: string
  try {
    text = file === '-' ? await io.readStdin() : await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new CommandError(
      `${name}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (error as Error).message}`,
    )
  }
  const rows = text.split('\n')
  const parsed: Array<{ line: number; value: unknown }> = []
  for (let i = 0; i < rows.length; i++) {
    if (!rows[i].trim()) continue
    try {
      parsed.push({ line: i + 1, value: JSON.parse(rows[i]) })
    } catch (error) {
      throw new CommandError(`${name}:${i + 1}: not JSON (${(error as Error).message})`)
    }
  }
  if (parsed.length === 0)
    throw new CommandError(`${name}: empty; expected a jsonl export (tack sessions export ID)`)
  const first = parsed[0].value as { type?: unknown; header?: SessionHeader } | null
  if (first?.type !== 'session/header' || typeof first.header?.id !== 'string')
    throw new CommandError(
      `${name}:${parsed[0].line}: the first line must be the session header of a jsonl export (tack sessions export ID)`,
    )
  const header = first.header
  const events = markImported(parsed.slice(1).map((p) => p.value as SessionEvent))
  try {
    await store.create(header)
  } catch (error) {
    if ((error as { code?: string }).code === 'SESSION_EXISTS')
      throw new CommandError(
        `${name}: session ${header.id} is already in the store (tack sessions rm ${header.id} first to replace it)`,
      )
    throw new CommandError(`${name}: the session header was refused: ${(error as Error).message}`)
  }
  try {
    if (events.length) await store.append(header.id, events)
  } catch (error) {
    await store.remove(header.id).catch(() => {})
    throw new CommandError(`${name}: the events were refused, nothing imported: ${(error as Error).message}`)
  }
  return header.id
}

/**
 * A file's `permission/mode` switches are someone else's word, not the user's: a `permission/imported`
 * marker after them lets them narrow the mode a resumed run starts in but never widen it
 * (@tack/permissions `permissionModeOf`, docs/decisions/0119-reported-and-resumed-permission-mode.md).
 */
function markImported(events: SessionEvent[]): SessionEvent[] {
  if (!events.some((e) => (e.type as string) === 'permission/mode')) return events
  const seq = (events.at(-1)?.seq ?? -1) + 1
  const marker: SessionEvent<'permission/imported'> = {
    type: 'permission/imported',
    seq,
    time: new Date().toISOString(),
    data: {},
  }
  return [...events, marker]
}
