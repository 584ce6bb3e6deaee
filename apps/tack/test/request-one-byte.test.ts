// Every text tack itself puts in a request (system prompt, tool definitions, the notes tools append to
// their results) is Latin-1. One character beyond U+00FF anywhere in a body puts V8's JSON.stringify —
// which the AI SDK runs on the whole body, every request — on its slow path: about 8× the CPU for the
// same bytes (docs/decisions/0067-long-session-cost.md). A user's own non-Latin-1 text still costs that;
// tack's must not.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { runTack, sandbox, writeLoopConfig } from './helpers.ts'

/** The characters of `text` above U+00FF, with some context, so a failure names the culprit. */
function beyondLatin1(text: string): string[] {
  const found: string[] = []
  for (const m of text.matchAll(/[^\u0000-\u00ff]/gu)) {
    found.push(`${m[0]} in …${text.slice(Math.max(0, m.index - 60), m.index + 20)}…`)
  }
  return found
}

test('a default-profile request (system prompt, tools, a read cut by its limit and a long line) is Latin-1', async () => {
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'big.txt', limit: 2 } }] },
      { kind: 'text', text: 'done' },
    ],
  })
  try {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'big.txt'), `${'x'.repeat(2500)}\nline 2\nline 3\n`)
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const r = await runTack(['run', '--config', config, '--model', 'loop/m', 'read big.txt'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(server.requests).toHaveLength(2)
    const second = server.requests[1].rawBody
    // The read's result is in the body, with both notes tack appends.
    expect(second).toContain('[line cut: 2500 characters in all]')
    expect(second).toContain('[Showing lines 1-2, stopped at the 2-line limit.')
    expect(beyondLatin1(second)).toEqual([])
  } finally {
    await server.close()
  }
})
