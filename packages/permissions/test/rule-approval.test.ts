// A rule that vouches for a call lets a boundary-guarding tool cross its boundary: yolo mode and an
// explicit allow rule read a file outside the workspace; without them, headless, it stays refused.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { FsToolsPlugin } from '@tack/tool-fs'
import { describe, expect, it } from 'vitest'
import { PermissionsPlugin } from '../src/index.ts'
import { workspace } from './support.ts'

const user = (content: string) => ({ content, source: { kind: 'user' } as const })

async function readOutside(config: Record<string, unknown>) {
  const { cwd } = await workspace()
  const outside = await mkdtemp(join(tmpdir(), 'tack-outside-'))
  const file = join(outside, 'notes.txt')
  await writeFile(file, 'outside words\n')
  const t = await createTestAgent({
    cwd,
    plugins: [
      { plugin: FsToolsPlugin, config: {} },
      { plugin: PermissionsPlugin, config },
    ],
    script: [toolCalls([{ name: 'read', args: { file_path: file } }]), text('ok')],
  })
  await t.agent.send(user('read it'))
  const result = t.events().find((e) => e.type === 'tool/result') as SessionEvent<'tool/result'>
  await t.dispose()
  return { result, file }
}

describe('rule approvals reach the tool (TL-11, 80-cli §4)', () => {
  it('TL-11 yolo mode reads a file outside the workspace', async () => {
    const { result } = await readOutside({ mode: 'yolo' })
    expect(result.data.isError).toBe(false)
    expect(result.data.content[0].text).toContain('outside words')
  })

  it('TL-11 an explicit allow rule for the outside path reads it in workspace-write mode', async () => {
    const { result } = await readOutside({
      mode: 'workspace-write',
      allow: [{ tool: 'read', path: `${tmpdir()}/tack-outside-*/**` }],
    })
    expect(result.data.isError).toBe(false)
  })

  it('TL-11 without a rule or an approver the outside read fails OUTSIDE_WORKSPACE (headless)', async () => {
    const { result } = await readOutside({ mode: 'workspace-write' })
    expect(result.data.isError).toBe(true)
    expect(result.data.error?.code).toBe('OUTSIDE_WORKSPACE')
  })
})
