// Code Mode through the real binary (issue 14 item 5): --tools-mode and TACK_TOOLS_MODE, the progress
// lines of a run_code call and its sub-calls, `tool/code-dispatch` in --json, and bad settings.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeJson } from './helpers.ts'

const PROGRAM = [
  "for (const f of ['src/a.ts', 'src/missing.ts']) {",
  '  try { await tools.read({ file_path: f }) } catch (e: any) { console.log(f, e.code) }',
  '}',
  "return await tools.grep({ pattern: 'TODO', output: 'count' })",
].join('\n')

async function codeModeBox() {
  const box = await sandbox()
  await mkdir(join(box.workspace, 'src'))
  await writeFile(join(box.workspace, 'src', 'a.ts'), 'export const a = 1 // TODO\n')
  const script = async () =>
    `scripted/${await writeJson(join(box.root, `s-${Math.random().toString(36).slice(2)}.json`), [
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'run_code', args: { code: PROGRAM } }] },
      { kind: 'text', text: 'done' },
    ])}`
  return { box, script }
}

describe('TL-19 Code Mode in the CLI', () => {
  test('TL-19 --tools-mode code: progress shows run_code with each sub-call on stderr', async () => {
    const { box, script } = await codeModeBox()
    const r = await runTack(['run', '--trust', '--tools-mode', 'code', '--model', await script(), 'go'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('done\n')
    expect(r.stderr).toContain('tack:   ↳ ✓ Read src/a.ts')
    expect(r.stderr).toMatch(/tack: {3}↳ ✗ Read src\/missing\.ts — NOT_FOUND/)
    expect(r.stderr).toContain('tack:   ↳ ✓ Grep TODO')
    expect(r.stderr).toMatch(/tack: ✓ run_code \(4 lines\)/)
  })

  test('TL-27 TACK_TOOLS_MODE=code with --json: the start line offers run_code, each sub-call is a tool/code-dispatch line', async () => {
    const { box, script } = await codeModeBox()
    const r = await runTack(['run', '--trust', '--json', '--model', await script(), 'go'], {
      env: { ...box.env, TACK_TOOLS_MODE: 'code' },
      cwd: box.workspace,
    })
    expect(r.code, r.stderr).toBe(0)
    const lines = jsonLines(r.stdout)
    expect(lines[0]).toMatchObject({ type: 'start', tools: ['run_code'] })
    const dispatched = lines.filter((l) => l.type === 'tool/code-dispatch').map((l) => l.data)
    expect(dispatched).toMatchObject([
      { subCallId: 'c1:code:1', name: 'read', isError: false },
      { subCallId: 'c1:code:2', name: 'read', isError: true, errorCode: 'NOT_FOUND' },
      { subCallId: 'c1:code:3', name: 'grep', isError: false },
    ])
    const result = lines.find((l) => l.type === 'tool/result') as {
      data: { content: Array<{ text: string }> }
    }
    expect(result.data.content[0].text).toBe('src/missing.ts NOT_FOUND\n"src/a.ts:1"')
  })

  test('TL-20 bad settings: an unknown TACK_TOOLS_MODE is a usage error; a bad budget names the key; no runtime fails the turn', async () => {
    const { box, script } = await codeModeBox()
    const bad = await runTack(['run', '--model', await script(), 'go'], {
      env: { ...box.env, TACK_TOOLS_MODE: 'fast' },
      cwd: box.workspace,
    })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('TACK_TOOLS_MODE must be one of native, code, both (got "fast")')
    /** A run in code mode with one more config file. */
    const withConfig = async (name: string, yaml: string) => {
      await writeFile(join(box.root, name), yaml)
      const args = ['run', '--trust', '--config', join(box.root, name), '--tools-mode', 'code']
      return runTack([...args, '--model', await script(), 'go'], { env: box.env, cwd: box.workspace })
    }
    const budget = await withConfig('budget.yml', 'plugins:\n  codeRuntime:\n    computeMs: 0\n')
    expect(budget.code).toBe(2)
    expect(budget.stderr).toContain('plugins.codeRuntime.computeMs: must be an integer 1–2147483647 (got 0)')
    const off = await withConfig('off.yml', 'plugins:\n  codeRuntime: false\n')
    expect(off.code).toBe(1)
    expect(off.stderr).toContain('(CODE_MODE_UNAVAILABLE)')
  })
})
