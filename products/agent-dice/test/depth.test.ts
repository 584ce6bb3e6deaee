import { spawnSync } from 'node:child_process'
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countClaudeUserTurns, findClaudeTranscript, projectSlugs } from '../src/depth/claude.ts'
import { countCodexUserTurns, findCodexRollout } from '../src/depth/codex.ts'
import { NODE, PACKAGE_ROOT, tempDir } from './helpers.ts'

const prompt = (text: string) =>
  JSON.stringify({ type: 'user', message: { role: 'user', content: text }, uuid: text, sessionId: 's' })
const toolResult = () =>
  JSON.stringify({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', content: 'ok' }] },
    toolUseResult: { stdout: 'ok' },
  })
const assistant = () =>
  JSON.stringify({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: 'user' }] },
  })

describe('R17 Claude depth', () => {
  it('R17 3 prompts + 2 tool results count 3; blank and malformed lines are skipped; a missing file is 0', () => {
    const path = join(tempDir(), 't.jsonl')
    writeFileSync(
      path,
      [
        prompt('a'),
        assistant(),
        toolResult(),
        '',
        '{"type":"user"',
        prompt('b'),
        toolResult(),
        '   ',
        prompt('c'),
      ].join('\n'),
    )
    expect(countClaudeUserTurns(path)).toBe(3)
    expect(countClaudeUserTurns(join(tempDir(), 'missing.jsonl'))).toBe(0)
  })
  it('R17 slugs: Claude Code replaces every non-alphanumeric (dots too), then the public form (R27 fix 9)', () => {
    expect(projectSlugs('/home/u/my_proj.v2')).toEqual(['-home-u-my-proj-v2', '-home-u-my-proj.v2'])
  })
  it('R17 a known session selects <id>.jsonl or nothing; else the newest non-agent transcript', () => {
    const home = tempDir()
    const cwd = '/work/my.app'
    const dir = join(home, '.claude', 'projects', '-work-my-app')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'old.jsonl'), prompt('x'))
    writeFileSync(join(dir, 'new.jsonl'), prompt('y'))
    writeFileSync(join(dir, 'agent-zzz.jsonl'), prompt('z'))
    utimesSync(join(dir, 'old.jsonl'), 1000, 1000)
    utimesSync(join(dir, 'new.jsonl'), 2000, 2000)
    utimesSync(join(dir, 'agent-zzz.jsonl'), 3000, 3000)
    const e = { env: { HOME: home }, cwd }
    expect(findClaudeTranscript(e, 'old')).toBe(join(dir, 'old.jsonl'))
    expect(findClaudeTranscript(e, 'unknown')).toBeUndefined()
    expect(findClaudeTranscript(e)).toBe(join(dir, 'new.jsonl'))
    const configured = { env: { HOME: '/nowhere', CLAUDE_CONFIG_DIR: join(home, '.claude') }, cwd }
    expect(findClaudeTranscript(configured, 'new')).toBe(join(dir, 'new.jsonl'))
  })
  it('R17 a 200 MB transcript counts with less than 64 MB memory growth', () => {
    const dir = tempDir()
    const path = join(dir, 'big.jsonl')
    const script = join(dir, 'measure.mjs')
    writeFileSync(
      script,
      `
      import { appendFileSync, statSync, writeFileSync } from 'node:fs'
      import { countClaudeUserTurns } from ${JSON.stringify(join(PACKAGE_ROOT, 'src/depth/claude.ts'))}
      const path = ${JSON.stringify(path)}
      const filler = JSON.stringify({ type: 'assistant', message: { content: 'x'.repeat(2000) } })
      const prompt = JSON.stringify({ type: 'user', message: { role: 'user', content: 'p' } })
      const block = Array.from({ length: 99 }, () => filler).join('\\n') + '\\n' + prompt + '\\n'
      const chunk = block.repeat(100)
      writeFileSync(path, '')
      let blocks = 0
      while (statSync(path).size < 200 * 1024 * 1024) { appendFileSync(path, chunk); blocks += 100 }
      globalThis.gc()
      const before = process.memoryUsage().rss
      const count = countClaudeUserTurns(path)
      const growth = process.memoryUsage().rss - before
      console.log(JSON.stringify({ count, blocks, growth, size: statSync(path).size }))
    `,
    )
    const r = spawnSync(NODE, ['--expose-gc', script], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    const { count, blocks, growth, size } = JSON.parse(r.stdout)
    expect(size).toBeGreaterThanOrEqual(200 * 1024 * 1024)
    expect(count).toBe(blocks)
    expect(growth).toBeLessThan(64 * 1024 * 1024)
  })
})

const rolloutLine = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: 't', type, payload })

describe('R18 Codex depth', () => {
  it('R18 only user messages count, the environment-context record included', () => {
    const path = join(tempDir(), 'rollout.jsonl')
    writeFileSync(
      path,
      [
        rolloutLine('session_meta', { id: 's' }),
        rolloutLine('response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>' }],
        }),
        rolloutLine('response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'q1' }],
        }),
        rolloutLine('response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'user' }],
        }),
        rolloutLine('response_item', { type: 'message', role: 'developer', content: [] }),
        rolloutLine('response_item', { type: 'reasoning', summary: [] }),
        rolloutLine('response_item', { type: 'function_call', name: 'shell', arguments: '"user"' }),
        rolloutLine('response_item', { type: 'function_call_output', output: 'user' }),
        rolloutLine('event_msg', { type: 'user_message', message: 'q1' }),
        rolloutLine('response_item', {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'q2' }],
        }),
      ].join('\n'),
    )
    expect(countCodexUserTurns(path)).toBe(3)
  })
  it('R18 a rollout found by session id on two days: the newer wins; .zst and non-digit folders are ignored', () => {
    const root = tempDir()
    const id = '019f4d75-c99d-7aa0-a9d7-698bb6e5b7df'
    const older = join(root, 'sessions', '2026', '07', '19')
    const newer = join(root, 'sessions', '2026', '08', '02')
    const bogus = join(root, 'sessions', 'archive', '99', '99')
    for (const d of [older, newer, bogus]) mkdirSync(d, { recursive: true })
    writeFileSync(join(older, `rollout-2026-07-19T10-00-00-${id}.jsonl`), '')
    writeFileSync(join(newer, `rollout-2026-08-02T10-00-00-${id}.jsonl`), '')
    writeFileSync(join(newer, `rollout-2026-08-02T11-00-00-${id}.jsonl.zst`), '')
    writeFileSync(join(bogus, `rollout-x-${id}.jsonl`), '')
    expect(findCodexRollout(root, id)).toBe(join(newer, `rollout-2026-08-02T10-00-00-${id}.jsonl`))
    expect(findCodexRollout(root, 'other')).toBeUndefined()
    expect(findCodexRollout(join(root, 'missing'), id)).toBeUndefined()
  })
})
