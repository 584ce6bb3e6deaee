// B1 the project trust store; B9 a resumed session's transcript is rewritten from the log, not appended twice.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Session } from '@tack/session'
import { describe, expect, it } from 'vitest'
import {
  isProjectTrusted,
  PROJECT_TRUST_FILE,
  TranscriptWriter,
  trustProject,
  untrustProject,
} from '../src/index.ts'
import { tempDir } from './helpers.ts'

describe('B1 trust store', () => {
  it('B1 trustProject records the real path once; untrust removes it; a corrupt store trusts nothing', async () => {
    const dataDir = await tempDir()
    const dir = await tempDir()
    expect(isProjectTrusted(dir, dataDir)).toBe(false)
    trustProject(dir, dataDir, new Date('2026-01-02T03:04:05Z'))
    trustProject(dir, dataDir)
    const file = JSON.parse(await readFile(join(dataDir, PROJECT_TRUST_FILE), 'utf8'))
    expect(Object.values(file.projects)).toEqual([{ trustedAt: '2026-01-02T03:04:05.000Z' }])
    expect(isProjectTrusted(join(dir, '.', ''), dataDir)).toBe(true)
    expect(untrustProject(dir, dataDir)).toBe(true)
    expect(untrustProject(dir, dataDir)).toBe(false)
    await writeFile(join(dataDir, PROJECT_TRUST_FILE), 'not json')
    expect(isProjectTrusted(dir, dataDir)).toBe(false)
  })
})

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
