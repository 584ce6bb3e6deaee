// The acceptance session: in `code` mode one run_code program reads 20 files through the SDK,
// greps, and edits one. The file changes on disk, each sub-call is a `tool/code-dispatch` event, and
// a PreToolUse-style deny plugin blocks one sub-call, rejecting that promise only.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { FsToolsPlugin } from '@tack/tool-fs'
import { describe, expect, test } from 'vitest'
import { CodeRuntimePlugin } from '../src/index.ts'
import type { Dispatch } from './support.ts'

const PROGRAM = `
const names = Array.from({ length: 20 }, (_, i) => \`src/f\${String(i + 1).padStart(2, '0')}.ts\`)
const read: string[] = []
const refused: string[] = []
for (const name of names) {
  try {
    const body: string = await tools.read({ file_path: name })
    if (body.includes('export')) read.push(name)
  } catch (error: any) {
    refused.push(\`\${name}: \${error.code}\`)
  }
}
const hits = (await tools.grep({ pattern: 'TODO: fix', output: 'files' })).split('\\n').filter((l) => l.endsWith('.ts'))
for (const hit of hits) await tools.edit({ file_path: hit, old_string: 'TODO: fix', new_string: 'DONE: fixed' })
console.log(\`read \${read.length}, refused \${refused.length}\`)
return { refused, edited: hits }
`

describe('Code Mode session (issue 14 acceptance)', () => {
  test('TL-26 TL-27 one program reads 20 files, greps and edits one; a deny blocks one read only', async () => {
    const t = await createTestAgent({
      script: [
        toolCalls([{ id: 'rc1', name: 'run_code', args: { code: PROGRAM } }]),
        text('Fixed the TODO.'),
      ],
      config: { tools: { mode: 'code' } },
      plugins: [
        { plugin: CodeRuntimePlugin, config: {} },
        { plugin: FsToolsPlugin, config: {} },
        // A PreToolUse-style policy: refuses to read one secret-looking file.
        (ctx) =>
          ctx.on('tools/pre-execute', (exec) =>
            exec.name === 'read' &&
            String((exec.arguments as { file_path?: string }).file_path).endsWith('f13.ts')
              ? { action: 'deny', reason: 'f13 is off limits' }
              : { action: 'allow' },
          ),
      ],
    })
    await mkdir(join(t.cwd, 'src'))
    for (let i = 1; i <= 20; i++) {
      const name = `f${String(i).padStart(2, '0')}.ts`
      await writeFile(
        join(t.cwd, 'src', name),
        `export const v${i} = ${i}\n${i === 7 ? '// TODO: fix this\n' : ''}`,
      )
    }

    const outcome = await t.agent.send({ content: 'fix the TODO', source: { kind: 'user' } })
    expect(outcome.reason).toEqual({ kind: 'completed' })
    // Two model requests for the whole task.
    expect(t.model.requests).toHaveLength(2)
    expect(await readFile(join(t.cwd, 'src', 'f07.ts'), 'utf8')).toBe(
      'export const v7 = 7\n// DONE: fixed this\n',
    )

    const events = t.events()
    const callAt = events.findIndex((e) => e.type === 'tool/call')
    const resultAt = events.findIndex((e) => e.type === 'tool/result')
    const dispatched = events.flatMap((e, i) =>
      e.type === 'tool/code-dispatch' ? [{ i, d: e.data as Dispatch }] : [],
    )
    expect(dispatched.map(({ d }) => d.name)).toEqual([...Array(20).fill('read'), 'grep', 'edit'])
    for (const { i, d } of dispatched) {
      expect(i).toBeGreaterThan(callAt)
      expect(i).toBeLessThan(resultAt)
      expect(d.parentCallId).toBe('rc1')
    }
    expect(dispatched.map(({ d }) => d.subCallId)).toEqual(dispatched.map((_, n) => `rc1:code:${n + 1}`))
    const denied = dispatched.filter(({ d }) => d.isError)
    expect(denied.map(({ d }) => [d.arguments, d.errorCode])).toEqual([
      [{ file_path: 'src/f13.ts' }, 'DENIED'],
    ])

    const result = events[resultAt].data as { isError: boolean; content: Array<{ text: string }> }
    expect(result.isError).toBe(false)
    expect(result.content[0].text).toBe(
      'read 19, refused 1\n{"refused":["src/f13.ts: DENIED"],"edited":["src/f07.ts"]}',
    )
    // The session goes on: the model saw the result and answered.
    expect(t.model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool' })
    await t.dispose()
  })
})
