// Issue 8 item 2's acceptance (0011-tool-declarations.md): a tool from a package of its own —
// `stamp`, `access: 'write'`, `paths: [file_path]`, Claude name `Stamp` — is held to the workspace by
// the scope and the permission plugin, and reaches a real Claude `PreToolUse` hook under its declared
// name, with no edit to the permission plugin or the bridges (neither names it anywhere).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { PermissionsPlugin } from '@tack/permissions'
import type { ApprovalRequest } from '@tack/tools'
import { StampToolPlugin } from '@tack/tools/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, hook, prompt, tempDir } from './helpers.ts'

/** A real hook process that appends its stdin (the payload, one JSON line) to `file`, only for `Stamp`. */
const recordingHook = (file: string) => hook('PreToolUse', `cat >> '${file}'`, { matcher: 'Stamp' })

async function payloads(file: string): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(file)) return []
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('0011 a tool that describes itself', () => {
  it('issue 8.2: stamp is scoped to the workspace headless and shows up in PreToolUse as Stamp', async () => {
    const out = join(await tempDir('tack-hc-payloads-'), 'pre.jsonl')
    const t = await bridgeAgent({
      projectHooks: recordingHook(out),
      plugins: [
        { plugin: StampToolPlugin },
        { plugin: PermissionsPlugin, config: { mode: 'workspace-write' } },
      ],
      script: [
        toolCalls([
          { name: 'stamp', args: { file_path: 'notes/a.txt', text: 'inside' } },
          { name: 'stamp', args: { file_path: '../escaped.txt', text: 'outside' } },
        ]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(prompt('stamp two files'))
      const [inside, outside] = t.of('tool/result').map((e) => e.data)
      expect(inside).toMatchObject({ isError: false })
      expect(await readFile(join(t.cwd, 'notes', 'a.txt'), 'utf8')).toBe('inside')
      expect(outside).toMatchObject({ isError: true, error: { code: 'OUTSIDE_WORKSPACE' } })
      expect(existsSync(join(t.cwd, '..', 'escaped.txt'))).toBe(false)

      const seen = await payloads(out)
      expect(seen.map((p) => p.tool_name)).toEqual(['Stamp', 'Stamp'])
      expect(seen[0]).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_input: { file_path: 'notes/a.txt', text: 'inside' },
        tool_use_id: inside?.callId,
      })
    } finally {
      await t.dispose()
    }
  })

  it('issue 8.2: with an approver the outside stamp is asked as "outside the workspace" and a refusal denies it', async () => {
    const asked: ApprovalRequest[] = []
    const refuse = (ctx: Context) =>
      void ctx.provide('approval', {
        request: async (req: ApprovalRequest) => {
          asked.push(req)
          return { action: 'deny', by: 'user' }
        },
      })
    const t = await bridgeAgent({
      before: [refuse],
      plugins: [
        { plugin: StampToolPlugin },
        { plugin: PermissionsPlugin, config: { mode: 'workspace-write' } },
      ],
      script: [toolCalls([{ name: 'stamp', args: { file_path: '../escaped.txt' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('stamp outside'))
      expect(asked.map((req) => [req.exec.name, req.reason])).toEqual([['stamp', 'outside the workspace']])
      expect(t.of('tool/result')[0]?.data).toMatchObject({ isError: true, error: { code: 'DENIED' } })
      expect(existsSync(join(t.cwd, '..', 'escaped.txt'))).toBe(false)
    } finally {
      await t.dispose()
    }
  })

  it('issue 8.2: read-only mode denies the declared write even inside the workspace', async () => {
    const t = await bridgeAgent({
      plugins: [{ plugin: StampToolPlugin }, { plugin: PermissionsPlugin, config: { mode: 'read-only' } }],
      script: [toolCalls([{ name: 'stamp', args: { file_path: 'a.txt' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('stamp'))
      const result = t.of('tool/result')[0]?.data
      expect(result).toMatchObject({ isError: true, error: { code: 'DENIED' } })
      expect(result?.content[0]?.text).toBe(
        `Read-only mode does not allow this: stamp changes ${join(t.cwd, 'a.txt')}.`,
      )
      expect(existsSync(join(t.cwd, 'a.txt'))).toBe(false)
    } finally {
      await t.dispose()
    }
  })
})
