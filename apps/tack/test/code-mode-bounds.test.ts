// What a Code Mode program can put in the session log and on stderr, through the real binary
// (docs/decisions/0151-code-mode-failure-bounds.md): a huge error text and a huge sub-call argument
// leave bounded events in the SQLite store (the argument by size and SHA-256), and a memory bomb is
// reported as `memory` with nothing from QuickJS on stderr.
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, scriptedModel } from './helpers.ts'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function runCodeProgram(box: Sandbox, code: string) {
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ id: 'c1', name: 'run_code', args: { code } }] },
    { kind: 'text', text: 'done' },
  ])
  return runTack(['run', '--json', '--trust', '--tools-mode', 'code', '--model', model, 'go'], {
    env: box.env,
    cwd: box.workspace,
  })
}

type Row = { type: string; data: string }

function storedEvents(box: Sandbox): Row[] {
  const db = new DatabaseSync(join(box.tackHome, 'sessions.db'), { readOnly: true })
  try {
    return db.prepare('SELECT type, data FROM events ORDER BY seq').all() as Row[]
  } finally {
    db.close()
  }
}

describe('Code Mode leaves bounded bytes in the log', () => {
  test('a 20 MB write argument and a 20 MB error text: every stored event stays small; the argument is logged by size and SHA-256', async () => {
    const box = await sandbox()
    const r = await runCodeProgram(
      box,
      "await tools.write({ file_path: 'big.txt', content: 'x'.repeat(2e7) })\nthrow new Error('E'.repeat(2e7))",
    )
    expect(r.code, r.stderr).toBe(0)
    const content = await readFile(join(box.workspace, 'big.txt'), 'utf8')
    expect(content.length).toBe(2e7)
    const events = storedEvents(box)
    const largest = Math.max(...events.map((e) => e.data.length))
    expect(largest, `the largest stored event has ${largest} characters`).toBeLessThan(200_000)
    const dispatch = events.find((e) => e.type === 'tool/code-dispatch')
    const data = JSON.parse(dispatch?.data ?? '{}')
    const dispatchedJson = JSON.stringify({ file_path: 'big.txt', content })
    expect(data).toMatchObject({
      name: 'write',
      isError: false,
      arguments: {
        file_path: 'big.txt',
        content: `[string of 20000000 bytes omitted, sha256 ${sha256(content)}]`,
      },
      argumentsOmitted: { bytes: dispatchedJson.length, sha256: sha256(dispatchedJson) },
    })
    const result = JSON.parse(events.find((e) => e.type === 'tool/result')?.data ?? '{}')
    expect(result.content[0].text).toMatch(/^run_code failed \(runtime\): Error: E{100}/)
    expect(result.content[0].text).toContain('... [error message cut at 64000 characters of 20000000]')
    // Nothing so large reached the model that the session had to be compacted.
    expect(events.map((e) => e.type).filter((t) => t.startsWith('compact'))).toEqual([])
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'result', answer: 'done' })
  }, 120_000)

  test('a memory bomb is reported as memory and stderr carries nothing from QuickJS', async () => {
    const box = await sandbox()
    await mkdir(box.tackHome, { recursive: true })
    await writeFile(join(box.tackHome, 'config.yml'), 'plugins:\n  codeRuntime:\n    memoryBytes: 67108864\n')
    const r = await runCodeProgram(box, 'const a = []\nfor (let i = 0; ; i++) a.push({ i, s: "y" + i })')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toContain('Aborted')
    const result = jsonLines(r.stdout).find((l) => l.type === 'tool/result') as {
      data: { meta: { kind: string }; content: Array<{ text: string }> }
    }
    expect(result.data.meta.kind).toBe('memory')
    expect(result.data.content[0].text).toBe(
      'run_code failed (memory): the program ran out of memory (limit 67108864 bytes)',
    )
  }, 120_000)
})

test('a sub-call argument nested deeper than the log stores is logged by size and SHA-256; the run goes on', async () => {
  const box = await sandbox()
  // 600 levels: under the cap in characters, past what the session log stores (MAX_JSON_DEPTH, 512)
  const r = await runCodeProgram(
    box,
    "let junk = []\nfor (let i = 0; i < 600; i++) junk = [junk]\nreturn await tools.bash({ command: 'echo deep', junk })",
  )
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toBe('')
  const dispatch = jsonLines(r.stdout).find((l) => l.type === 'tool/code-dispatch') as {
    data: { arguments: unknown; argumentsOmitted: { bytes: number; sha256: string } }
  }
  const dispatched = JSON.stringify({
    command: 'echo deep',
    junk: JSON.parse(`${'['.repeat(601)}${']'.repeat(601)}`),
  })
  expect(dispatch.data.arguments).toBe(
    `[argument of ${dispatched.length} bytes omitted, sha256 ${sha256(dispatched)}]`,
  )
  expect(dispatch.data.argumentsOmitted).toEqual({ bytes: dispatched.length, sha256: sha256(dispatched) })
  expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'result', answer: 'done' })
}, 120_000)
