// Issue 12 items 3 and 5 through the real binary (docs/decisions/0063-parallel-tool-calls.md,
// docs/decisions/0064-no-arbitrary-end.md): a stuck model ends on the loop detector with its reason on
// stderr and in the `--json` result; a project config that breaks a guard's range is refused naming the
// key; one message's reads run through the real fs tools with their results logged in the model's order.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeJson } from './helpers.ts'

const repeatRead = Array.from({ length: 12 }, () => ({
  kind: 'tool-calls',
  calls: [{ name: 'read', args: { file_path: 'notes.txt' } }],
}))

describe('tack run: long work guards (AL-27)', () => {
  test('a model repeating one call ends on the loop detector: stderr and --json say why, exit 1', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'notes.txt'), 'hello\n')
    const model = `scripted/${await writeJson(join(box.root, 'loop.json'), repeatRead)}`
    const r = await runTack(['run', '--model', model, 'read the notes'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      'tack: the turn ended with an error (LOOP_DETECTED): the model called "read" 5 times in a row with the same arguments (plugins.agent.maxIdenticalCalls: 5)',
    )

    const json = `scripted/${await writeJson(join(box.root, 'loop-json.json'), repeatRead)}`
    const j = await runTack(['run', '--json', '--model', json, 'read the notes'], {
      env: box.env,
      cwd: box.workspace,
    })
    const result = jsonLines(j.stdout).at(-1) as {
      type: string
      isError: boolean
      steps: number
      error: { code: string }
    }
    expect(result).toMatchObject({
      type: 'result',
      isError: true,
      steps: 5,
      error: { code: 'LOOP_DETECTED' },
    })
  })

  test('a configured count applies, and an out-of-range one is refused naming file, key and range', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'notes.txt'), 'hello\n')
    const config = join(box.root, 'config.yml')
    await writeFile(config, 'plugins:\n  agent: { maxIdenticalCalls: 3 }\n')
    const model = `scripted/${await writeJson(join(box.root, 'loop.json'), repeatRead)}`
    const r = await runTack(['run', '--config', config, '--json', '--model', model, 'go'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ steps: 3, error: { code: 'LOOP_DETECTED' } })

    await writeFile(config, 'plugins:\n  agent: { maxParallelTools: 0 }\n')
    const bad = await runTack(['run', '--config', config, '--model', model, 'go'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain(`${config}: plugins.agent.maxParallelTools: must be an integer 1–64 (got 0)`)
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  test('AL-26 one message of reads through the real fs tools: results logged in the model order', async () => {
    const box = await sandbox()
    for (const name of ['a', 'b', 'c']) await writeFile(join(box.workspace, `${name}.txt`), `${name} text\n`)
    const model = `scripted/${await writeJson(join(box.root, 'reads.json'), [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'grep', args: { pattern: 'text' } },
          { name: 'read', args: { file_path: 'a.txt' } },
          { name: 'glob', args: { pattern: '*.txt' } },
          { name: 'read', args: { file_path: 'c.txt' } },
        ],
      },
      { kind: 'text', text: 'read them all' },
    ])}`
    const r = await runTack(['run', '--json', '--model', model, 'read everything'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code).toBe(0)
    const events = jsonLines(r.stdout) as Array<{
      type: string
      data?: { callId?: string; isError?: boolean }
    }>
    const ids = (type: string) => events.filter((e) => e.type === type).map((e) => e.data?.callId)
    expect(ids('tool/call')).toEqual(['call_1', 'call_2', 'call_3', 'call_4'])
    expect(ids('tool/result')).toEqual(['call_1', 'call_2', 'call_3', 'call_4'])
    expect(events.filter((e) => e.type === 'tool/result').every((e) => e.data?.isError === false)).toBe(true)

    // The markdown export names each result's call, since results need not follow their own call.
    const sessionId = (events.at(-1) as { sessionId?: string }).sessionId as string
    const md = await runTack(['sessions', 'export', sessionId, '--format', 'markdown'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(md.stdout).toContain('### Tool call `glob` (call_3)')
    expect(md.stdout).toContain('### Result of `read` (call_2)')
  })
})
