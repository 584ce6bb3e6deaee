import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { collectSeams, generate } from '../gen-seams.ts'

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))

async function fixture(body: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'tack-seams-'))
  await mkdir(join(root, 'packages', 'demo', 'src'), { recursive: true })
  await writeFile(join(root, 'package.json'), '{"workspaces":["packages/*"]}')
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

/** A seam declaration in the fixture: its doc comment (none when undefined), then the member. */
const seam = (doc: string | undefined, member: string) =>
  `${doc === undefined ? '' : `    /** ${doc} */\n`}    ${member}`

/** Collects a fixture of `[doc, member, expected problem]` cases; every expected problem is reported. */
async function expectProblems(cases: readonly (readonly [string | undefined, string, RegExp])[]) {
  const root = await fixture(cases.map(([doc, member]) => seam(doc, member)).join('\n'))
  const { rows, problems } = await collectSeams(root)
  for (const [, , expected] of cases) expect(problems.join('\n')).toMatch(expected)
  return { root, rows, problems }
}

test('habit 4: a seam without @mode, without a doc comment, or with an unknown mode is a problem', async () => {
  const { rows, problems } = await expectProblems([
    ['no mode here', "'a/nomode'(): void", /a\/nomode has no @mode tag/],
    [undefined, "'a/nodoc'(): void", /a\/nodoc has no doc comment/],
    ['@mode sideways — what', "'a/badmode'(): void", /a\/badmode has unknown mode "sideways"/],
    ['no mode here either', "'a/prop-nomode': Waterfall<[x: number], number>", /a\/prop-nomode has no @mode/],
    [undefined, "'a/prop-nodoc': (x: number) => void", /a\/prop-nodoc has no doc comment/],
  ])
  expect(problems).toHaveLength(7) // five cases; the two undocumented ones lack a @mode too
  expect(rows.map((r) => r.name)).toEqual(['a/badmode'])
})

test('8.1 one way to declare a waterfall: the method form, a mode mismatch and unlabelled arguments are problems', async () => {
  const { root, rows } = await expectProblems([
    [
      '@mode waterfall — by hand',
      "'w/method'(x: number, next: () => Promise<number>): number",
      /waterfall seam w\/method is not declared as `Waterfall<…>`/,
    ],
    [
      '@mode emit — not a waterfall',
      "'w/mismatch': Waterfall<[x: number], number>",
      /seam w\/mismatch is declared as `Waterfall<…>` but its @mode is emit/,
    ],
    [
      '@mode waterfall — unlabelled',
      "'w/unlabelled': Waterfall<[number], number>",
      /seam w\/unlabelled: label every Waterfall argument/,
    ],
    [
      '@mode emit — some alias',
      "'w/alias': Listener",
      /seam w\/alias: declare it as a method or as a `Waterfall<…>` property, not `Listener`/,
    ],
  ])
  expect(rows.map((r) => r.name)).not.toContain('w/unlabelled')
  await expect(generate(root)).rejects.toThrow(/seam catalog: 4 problem\(s\)/)
})

test('8.1 a Waterfall<…> seam is printed with the `next` its listeners get', async () => {
  const root = await fixture(
    [
      seam('@mode waterfall — plain', "'w/plain': Waterfall<[agent: Agent, request: Req], Res>"),
      seam(
        '@mode waterfall — replaceable',
        "'w/replace': Waterfall<[exec: Exec], Answer, [exec?: Exec], Full>",
      ),
      seam('@mode emit — a method', "'e/method'(agent: Agent): void"),
      seam('@mode emit — a function-typed property', "'e/property': (agent: Agent) => void"),
    ].join('\n'),
  )
  const { rows, problems } = await collectSeams(root)
  expect(problems).toEqual([])
  expect(Object.fromEntries(rows.map((r) => [r.name, r.signature]))).toEqual({
    'w/plain': '(agent: Agent, request: Req, next: () => Promise<Res>) => Res | Promise<Res>',
    'w/replace': '(exec: Exec, next: (exec?: Exec) => Promise<Full>) => Answer | Promise<Answer>',
    'e/method': '(agent: Agent) => void',
    'e/property': '(agent: Agent) => void',
  })
})

test('8.1 the catalog prints every waterfall seam of the repository with its `next`', async () => {
  const { rows } = await collectSeams(REPO)
  const waterfalls = rows.filter((r) => r.mode === 'waterfall')
  expect(waterfalls.length).toBeGreaterThan(10)
  for (const row of waterfalls)
    expect(row.signature).toMatch(/, next: \(.*\) => Promise<.+>\) => .+ \| Promise<.+>$/)
  expect(rows.find((r) => r.name === 'ui/command')?.signature).toBe(
    '(agent: Agent, request: CommandRequest, next: () => Promise<CommandResult>) => CommandResult | Promise<CommandResult>',
  )
})
