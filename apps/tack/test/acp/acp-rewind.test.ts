// `/rewind` over ACP (docs/decisions/0305-checkpoints-and-rewind.md): the shared command lists the turns
// with what each changed, and `/rewind 1` restores the files and names the forked session (an editor
// loads it; ACP has no way for a command to switch the client's session).
import { readFile, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { updatesOf, withAcp } from './client.ts'
import { newSession, prompt } from './mcp-sessions.ts'

const textOf = (acp: Parameters<typeof updatesOf>[0], sessionId: string) =>
  updatesOf(acp, 'agent_message_chunk', sessionId)
    .map((u) => (u as { content: { text: string } }).content.text)
    .join('')

test('/rewind lists the turns with their changes, and /rewind 1 restores the files and names the fork', async () => {
  const box = await sandbox()
  await writeFile(join(box.workspace, 'a.txt'), 'original\r\n')
  await withAcp(
    {
      box,
      permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow-once' } }),
      script: [
        { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'a.txt' } }] },
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'edited\n' } }] },
        { kind: 'text', text: 'edited a' },
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'b.txt', content: 'new\n' } }] },
        { kind: 'text', text: 'wrote b' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp, [])
      expect((await prompt(acp, sessionId, 'edit a')).stopReason).toBe('end_turn')
      expect((await prompt(acp, sessionId, 'write b')).stopReason).toBe('end_turn')
      expect(await readFile(join(box.workspace, 'b.txt'), 'utf8')).toBe('new\n')

      const before = textOf(acp, sessionId).length
      expect((await prompt(acp, sessionId, '/rewind')).stopReason).toBe('end_turn')
      const listing = textOf(acp, sessionId).slice(before)
      expect(listing).toContain('1  edit a — +0 ~1 -0: ~a.txt')
      expect(listing).toContain('2  write b — +1 ~0 -0: +b.txt')

      const mark = textOf(acp, sessionId).length
      expect((await prompt(acp, sessionId, '/rewind 1')).stopReason).toBe('end_turn')
      const done = textOf(acp, sessionId).slice(mark)
      expect(done).toContain('restored a.txt')
      expect(done).toContain('removed b.txt')
      expect(done).toMatch(/conversation forked before turn 1: session [0-9a-f-]{36}/)
      expect(await readFile(join(box.workspace, 'a.txt'), 'latin1')).toBe('original\r\n')
      expect(existsSync(join(box.workspace, 'b.txt'))).toBe(false)
    },
  )
})
