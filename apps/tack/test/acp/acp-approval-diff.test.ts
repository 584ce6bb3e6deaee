// docs/decisions/0300-approval-shows-the-change.md through the real `tack acp` and the ACP SDK's client:
// a `session/request_permission` for `write` and `edit` carries, as its tool call's content, the diff
// the tool's dry run computed — the same hunks the completed call then shows — and a Code Mode program's
// inner edit is its own request with its own diff (the program's own question, with its code, is the
// TUI's test: ACP's default mode does not ask for run_code). An edit of a file not read yet fails with its own
// error and nobody is asked.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { promptOnce, startAcp, updatesOf } from './client.ts'

const ALLOW = { outcome: { outcome: 'selected' as const, optionId: 'allow-once' } }
const TEXT = 'alpha\nbeta\ngamma\n'

type Request = { toolCall: { toolCallId: string; title?: string; content?: unknown[] } }

test('0300: write and edit ask with the exact diff, and the completed call shows the same', async () => {
  const acp = await startAcp({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'a.txt' } }] },
      {
        kind: 'tool-calls',
        calls: [{ name: 'edit', args: { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' } }],
      },
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'b.txt', content: 'new file\n' } }] },
      { kind: 'text', text: 'done' },
    ],
    permission: () => ALLOW,
  })
  try {
    const a = join(acp.box.workspace, 'a.txt')
    await writeFile(a, TEXT)
    expect((await promptOnce(acp, 'change it')).stopReason).toBe('end_turn')
    const [edit, write] = acp.permissionRequests as Request[]
    const editDiff = { type: 'diff', path: a, oldText: 'alpha\nbeta\ngamma', newText: 'alpha\nBETA\ngamma' }
    expect(edit.toolCall.content).toEqual([editDiff])
    expect(write.toolCall.content).toEqual([
      { type: 'diff', path: join(acp.box.workspace, 'b.txt'), oldText: null, newText: 'new file\n' },
    ])
    const done = updatesOf(acp, 'tool_call_update').filter((u) => u.toolCallId === edit.toolCall.toolCallId)
    expect(done.at(-1)).toMatchObject({ status: 'completed', content: [editDiff] })
    expect(await readFile(a, 'utf8')).toBe('alpha\nBETA\ngamma\n')
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test('0300: an edit of a file not read yet fails with its own error, and no permission is asked', async () => {
  const acp = await startAcp({
    script: [
      {
        kind: 'tool-calls',
        calls: [{ name: 'edit', args: { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' } }],
      },
      { kind: 'text', text: 'done' },
    ],
    permission: () => ALLOW,
  })
  try {
    await writeFile(join(acp.box.workspace, 'a.txt'), TEXT)
    expect((await promptOnce(acp, 'change it')).stopReason).toBe('end_turn')
    expect(acp.permissionRequests).toEqual([])
    const failed = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'failed')
    expect(JSON.stringify(failed?.content)).toContain('a.txt has not been read in this session yet')
    expect(await readFile(join(acp.box.workspace, 'a.txt'), 'utf8')).toBe(TEXT)
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test("0300: a Code Mode program's inner edit is asked on its own, with its diff and the program", async () => {
  const program = [
    "await tools.read({ file_path: 'a.txt' })",
    "await tools.edit({ file_path: 'a.txt', old_string: 'gamma', new_string: 'GAMMA' })",
  ].join('\n')
  const acp = await startAcp({
    args: ['--tools-mode', 'code'],
    script: [
      { kind: 'tool-calls', calls: [{ name: 'run_code', args: { code: program } }] },
      { kind: 'text', text: 'done' },
    ],
    permission: () => ALLOW,
  })
  try {
    const a = join(acp.box.workspace, 'a.txt')
    await writeFile(a, TEXT)
    expect((await promptOnce(acp, 'change it')).stopReason).toBe('end_turn')
    const requests = acp.permissionRequests as Request[]
    // run_code itself is not asked in the default mode; the inner call that writes is, as its own call.
    expect(requests.map((r) => r.toolCall.title)).toEqual(['Edit a.txt'])
    expect(requests[0].toolCall.toolCallId).toMatch(/:code:/)
    const inner = requests.find((r) =>
      r.toolCall.content?.some((c) => (c as { type: string }).type === 'diff'),
    )
    expect(inner?.toolCall.content).toEqual([
      { type: 'diff', path: a, oldText: 'alpha\nbeta\ngamma', newText: 'alpha\nbeta\nGAMMA' },
      // then the program it comes from, line by line
      ...[
        'It is a call of the Code Mode program run_code (call_1):',
        ...program.split('\n').map((line) => `  ${line}`),
      ].map((text) => ({ type: 'content', content: { type: 'text', text } })),
    ])
    expect(await readFile(a, 'utf8')).toBe('alpha\nbeta\nGAMMA\n')
  } finally {
    expect(await acp.close()).toBe(0)
  }
})
