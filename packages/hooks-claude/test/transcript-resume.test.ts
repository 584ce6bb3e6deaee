// B9 a resumed session's transcript is rewritten from the log, not appended twice.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Session } from '@tack/session'
import { describe, expect, it } from 'vitest'
import { TranscriptWriter } from '../src/index.ts'
import { tempDir } from './helpers.ts'

describe('B9 transcript writer', () => {
  it('B9 the first sync in a process rewrites the file; later syncs append only what the log gained', async () => {
    const dir = await tempDir()
    const path = join(dir, 's.jsonl')
    await writeFile(path, 'stale line from an earlier process\n')
    const session = new Session({
      header: { version: 1, id: 's', createdAt: '2026-01-01T00:00:00.000Z', cwd: '/w' },
    })
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('user/message', { content: [{ type: 'text', text: 'one' }], source: { kind: 'user' } })
    const writer = new TranscriptWriter(path, session, { sessionId: 's', cwd: '/w' })
    writer.sync()
    writer.sync()
    let lines = (await readFile(path, 'utf8')).trim().split('\n')
    expect(lines.map((l) => JSON.parse(l).message.content)).toEqual(['one'])
    session.append('steering/message', { content: [{ type: 'text', text: 'two' }], source: { kind: 'user' } })
    writer.sync()
    lines = (await readFile(path, 'utf8')).trim().split('\n')
    expect(lines.map((l) => JSON.parse(l).message.content)).toEqual(['one', 'two'])
  })
})
