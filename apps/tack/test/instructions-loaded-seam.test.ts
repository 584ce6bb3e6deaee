// `agent/instructions-loaded` (packages/agent/src/seams.ts; docs/decisions/0170-hook-event-seams.md):
// the instructions plugin emits it once, with the files it read, when a session's first request reads
// them; a resumed session reuses the recorded text and emits nothing.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InstructionsLoadReason, LoadedInstructionFile } from '@tack/agent'
import { createTestAgent, text } from '@tack/agent/testing'
import { expect, test } from 'vitest'
import { InstructionsPlugin } from '../src/instructions/plugin.ts'

test('the files read on the first request are emitted once, with their scope; a resume emits nothing', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tack-instr-seam-'))
  const home = join(root, 'home')
  const ws = join(root, 'ws')
  await mkdir(home, { recursive: true })
  await mkdir(join(ws, '.git'), { recursive: true })
  await writeFile(join(home, 'AGENTS.md'), 'user words')
  await writeFile(join(ws, 'CLAUDE.md'), 'project words')
  const seen: Array<[readonly LoadedInstructionFile[], InstructionsLoadReason]> = []
  const t = await createTestAgent({
    cwd: ws,
    script: [text('one'), text('two'), text('three')],
    plugins: [{ plugin: InstructionsPlugin, config: { home } }],
    setup: (ctx) => {
      ctx.on('agent/instructions-loaded', (_agent, files, reason) => {
        seen.push([files, reason])
      })
    },
  })
  const user = (content: string) => ({ content, source: { kind: 'user' as const } })
  await t.agent.send(user('hi'))
  await t.agent.send(user('again'))
  expect(seen).toEqual([
    [
      [
        { path: join(home, 'AGENTS.md'), scope: 'user' },
        { path: join(ws, 'CLAUDE.md'), scope: 'project' },
      ],
      'session-start',
    ],
  ])
  const id = t.agent.session.id
  await t.handle.dispose()
  const resumed = await t.ctx.agents.resume(id)
  await resumed.agent.send(user('resumed'))
  expect(seen).toHaveLength(1)
  await resumed.dispose()
  await t.dispose()
})
