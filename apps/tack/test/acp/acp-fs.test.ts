// 50-acp.md requirement 10: the client's file system. A client that offers fs/read_text_file and
// fs/write_text_file serves an editor buffer that differs from the disk; the real `tack acp` (scripted
// model) reads the buffer, its edit arrives as fs/write_text_file, and the disk is untouched.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ClientApp, methods, RequestError } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { promptOnce, startAcp, updatesOf } from './client.ts'

interface Editor {
  /** Unsaved buffers by absolute path. */
  readonly buffers: Map<string, string>
  readonly reads: string[]
  readonly writes: { path: string; content: string }[]
}

function editorFs(editor: Editor) {
  return (app: ClientApp) =>
    app
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        editor.reads.push(params.path)
        const content = editor.buffers.get(params.path)
        if (content === undefined) throw RequestError.internalError(undefined, 'not open in the editor')
        return { content }
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        editor.writes.push({ path: params.path, content: params.content })
        editor.buffers.set(params.path, params.content)
        return {}
      })
}

const readThenEdit = [
  { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] },
  {
    kind: 'tool-calls',
    calls: [{ name: 'edit', args: { file_path: 'notes.txt', old_string: 'unsaved', new_string: 'edited' } }],
  },
  { kind: 'text', text: 'done' },
]

async function startWithNotes(args: readonly string[], capabilities: boolean) {
  const editor: Editor = { buffers: new Map(), reads: [], writes: [] }
  const acp = await startAcp({
    args,
    script: readThenEdit,
    ...(capabilities && { capabilities: { fs: { readTextFile: true, writeTextFile: true } } }),
    configure: editorFs(editor),
  })
  const notes = join(acp.box.workspace, 'notes.txt')
  await writeFile(notes, 'saved line\n')
  editor.buffers.set(notes, 'first\nunsaved line\n')
  return { acp, editor, notes }
}

test('50-acp.md requirement 10: the model reads the editor buffer; its edit arrives as fs/write_text_file; the disk is untouched', async () => {
  const { acp, editor, notes } = await startWithNotes(['--permission-mode', 'yolo'], true)
  try {
    expect((await promptOnce(acp, 'fix the notes')).stopReason).toBe('end_turn')
    expect(editor.reads).toContain(notes)
    const done = updatesOf(acp, 'tool_call_update').filter((u) => u.status === 'completed')
    expect(JSON.stringify(done[0]?.content)).toContain('unsaved line')
    expect(editor.writes).toEqual([{ path: notes, content: 'first\nedited line\n' }])
    expect(await readFile(notes, 'utf8')).toBe('saved line\n')
    // The applied-hunk diff is of the buffer, as with the local disk.
    expect(done[1]?.content).toEqual([
      { type: 'diff', path: notes, oldText: 'first\nunsaved line', newText: 'first\nedited line' },
    ])
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test('50-acp.md requirement 10: a rejected permission writes nothing, to the editor or the disk', async () => {
  const { acp, editor, notes } = await startWithNotes([], true)
  try {
    expect((await promptOnce(acp, 'fix the notes')).stopReason).toBe('end_turn')
    expect(editor.reads).toContain(notes)
    expect(acp.permissionRequests).toHaveLength(1)
    expect(editor.writes).toEqual([])
    expect(await readFile(notes, 'utf8')).toBe('saved line\n')
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test('50-acp.md requirement 10: a client without the fs capability leaves the tools on the local disk', async () => {
  const { acp, editor, notes } = await startWithNotes(['--permission-mode', 'yolo'], false)
  try {
    expect((await promptOnce(acp, 'fix the notes')).stopReason).toBe('end_turn')
    expect(editor.reads).toEqual([])
    expect(editor.writes).toEqual([])
    // The disk has no "unsaved": the edit fails NO_MATCH and the file keeps its text.
    expect(await readFile(notes, 'utf8')).toBe('saved line\n')
    const done = updatesOf(acp, 'tool_call_update').filter((u) => u.status === 'completed')
    expect(JSON.stringify(done[0]?.content)).toContain('saved line')
  } finally {
    expect(await acp.close()).toBe(0)
  }
})

test('50-acp.md requirement 10: an fs error of the client fails the call with one plain line naming the file', async () => {
  const { acp, editor } = await startWithNotes(['--permission-mode', 'yolo'], true)
  editor.buffers.clear()
  try {
    expect((await promptOnce(acp, 'fix the notes')).stopReason).toBe('end_turn')
    const failed = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'failed')
    expect(JSON.stringify(failed?.content)).toContain(
      'The editor could not read notes.txt: Internal error: not open in the editor',
    )
    expect(editor.writes).toEqual([])
  } finally {
    expect(await acp.close()).toBe(0)
  }
})
