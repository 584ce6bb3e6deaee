import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { collectSeams, generate } from '../gen-seams.ts'

async function fixture(body: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tack-seams-'))
  await mkdir(join(root, 'packages', 'demo', 'src'), { recursive: true })
  await writeFile(join(root, 'packages', 'demo', 'package.json'), '{"name":"@demo/pkg"}')
  await writeFile(
    join(root, 'packages', 'demo', 'src', 'seams.ts'),
    `declare module 'cordis' {\n  interface Events {\n${body}\n  }\n}\n`,
  )
  return root
}

test('habit 4: the seam catalog lists every seam of the loop with its dispatch mode', async () => {
  const [doc] = await generate()
  for (const seam of [
    'agent/prompt-submit',
    'agent/pre-step',
    'agent/request',
    'llm/stream',
    'agent/turn-continuation',
    'tools/pre-execute',
    'tools/post-execute',
    'subagent/start',
  ]) {
    expect(doc.content).toMatch(
      new RegExp(`\\| \`${seam.replace('/', '\\/')}\` \\| (emit|serial|waterfall|parallel) \\|`),
    )
  }
})

test('8.1 each seam is listed under the package that declares and fires it', async () => {
  const [doc] = await generate()
  for (const [seam, pkg] of [
    ['llm/retry', '@tack/llm'],
    ['subagent/start', '@tack/subagent'],
    ['subagent/end', '@tack/subagent'],
    ['llm/stream', '@tack/agent'],
    ['tools/call', '@tack/tools'],
  ]) {
    expect(doc.content).toMatch(new RegExp(`\\| \`${seam.replace('/', '\\/')}\` \\| \\w+ \\| \`${pkg}\` \\|`))
  }
})

test('habit 4: a seam without @mode, without a doc comment, or with an unknown mode is a problem', async () => {
  const root = await fixture(
    [
      "    /** @mode waterfall — fine */\n    'a/ok'(x: number, next: () => number): number",
      "    /** no mode here */\n    'a/nomode'(): void",
      "    'a/nodoc'(): void",
      "    /** @mode sideways — what */\n    'a/badmode'(): void",
    ].join('\n'),
  )
  const { rows, problems } = await collectSeams(root)
  expect(rows.map((r) => r.name)).toContain('a/ok')
  expect(problems.join('\n')).toMatch(/a\/nomode has no @mode tag/)
  expect(problems.join('\n')).toMatch(/a\/nodoc has no doc comment/)
  expect(problems.join('\n')).toMatch(/a\/badmode has unknown mode "sideways"/)
})
