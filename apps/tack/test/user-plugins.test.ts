// Issue 8 item 5 through the real binary: plugins of your own load from config (the two examples in
// examples/), from $TACK_HOME/plugins and (trusted) from .tack/plugins, validated like built-ins; a broken
// one is a clear one-line error naming the file.
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url))
/** The repository's own scratch folder (ignored by git): a plugin there resolves `@tack/*` as one in a checkout does. */
const REPO_TMP = fileURLToPath(new URL('../../../.tmp/', import.meta.url))

/** A plugin of your own that uses tack's packages: its own waterfall seam fired with `waterfall`, and `ToolFailure`. */
const OWN_SEAM_PLUGIN = `import { waterfall, type Waterfall } from '@tack/kernel'
import { defineTool, ToolFailure } from '@tack/tools'
declare module 'cordis' {
  interface Events {
    /** @mode waterfall — a test seam of a plugin of your own. */
    'own/shout': Waterfall<[text: string], string>
  }
}
export const name = 'own-seam'
export const inject = ['tools']
export function apply(ctx) {
  ctx.on('own/shout', async (text, next) => (await next()).toUpperCase())
  ctx.tools.register(
    defineTool({
      name: 'shout',
      description: 'Shouts the text.',
      access: 'read',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      async execute({ text }) {
        if (text === 'nothing') throw new ToolFailure('NOT_FOUND', 'nothing to shout')
        return waterfall(ctx, 'own/shout', [text], (t) => t)
      },
    }),
  )
}
`

describe('plugins of your own', () => {
  test('8.5 the bash-guard and status-line examples load from config and act in a real run', async () => {
    const server = await startLoopbackServer({
      script: [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'git push --force origin main' } }] },
        { kind: 'text', text: 'done' },
      ],
    })
    const box = await sandbox()
    try {
      const status = join(box.root, 'status')
      const config = join(box.root, 'mine.yml')
      await writeFile(
        config,
        [
          'plugins:',
          '  llm:',
          `    endpoints: { loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" } }`,
          `  ${join(EXAMPLES, 'bash-guard.ts')}: { deny: ['git push --force'] }`,
          `  ${join(EXAMPLES, 'status-line.ts')}: { path: ${status} }`,
          '',
        ].join('\n'),
      )
      const run = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'push it'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const result = jsonLines(run.stdout).find((l) => l.type === 'tool/result') as {
        data: { error?: { code: string }; content: Array<{ text: string }> }
      }
      expect(result.data.error?.code).toBe('DENIED')
      expect(result.data.content[0].text).toContain(
        'bash-guard: commands containing "git push --force" are not allowed here',
      )
      expect(readFileSync(status, 'utf8')).toBe('tack · loop/m · idle · turn 1 · step 2 · 0 tokens\n')

      const doctor = await runTack(['doctor', '--config', config, '--model', 'loop/m'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(doctor.stdout).toContain(`bash-guard — ${join(EXAMPLES, 'bash-guard.ts')} (config)`)
      expect(doctor.stdout).toContain(`status-line — ${join(EXAMPLES, 'status-line.ts')} (config)`)
    } finally {
      await server.close()
    }
  })

  test('8.5 a plugin named by its package name loads from node_modules beside the config file', async () => {
    const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'done' }] })
    const box = await sandbox()
    try {
      const pkg = join(box.root, 'node_modules', 'tack-plugin-hello')
      await mkdir(pkg, { recursive: true })
      const manifest = { name: 'tack-plugin-hello', type: 'module', exports: { '.': './index.mjs' } }
      await writeFile(join(pkg, 'package.json'), JSON.stringify(manifest))
      // Plain JavaScript with no settings (a plugin with settings exports a Config schema to check them).
      await writeFile(
        join(pkg, 'index.mjs'),
        [
          "import { appendFileSync } from 'node:fs'",
          "export const name = 'hello'",
          "export function apply() { appendFileSync(process.env.HELLO_OUT, 'hello from a package\\n') }",
          '',
        ].join('\n'),
      )
      const seen = join(box.root, 'hello.txt')
      const config = join(box.root, 'mine.yml')
      const llm = `  llm:\n    endpoints: { loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" } }\n`
      await writeFile(config, `plugins:\n${llm}  tack-plugin-hello: true\n`)
      const env = { ...box.env, HELLO_OUT: seen }
      const run = await runTack(['run', '--config', config, '--model', 'loop/m', 'hi'], {
        env,
        cwd: box.workspace,
      })
      expect(run.stderr).toBe('')
      expect(run.stdout).toBe('done\n')
      expect(readFileSync(seen, 'utf8')).toBe('hello from a package\n')
      const doctor = await runTack(['doctor', '--config', config, '--model', 'loop/m'], {
        env,
        cwd: box.workspace,
      })
      expect(doctor.stdout).toContain(`hello — ${join(pkg, 'index.mjs')} (config)`)
    } finally {
      await server.close()
    }
  })

  test("8.5 a plugin of your own in a checkout shares the running tack's packages: its seam fires, its ToolFailure keeps its code", async () => {
    const server = await startLoopbackServer({
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'shout', args: { text: 'hi' } },
            { name: 'shout', args: { text: 'nothing' } },
          ],
        },
        { kind: 'text', text: 'done' },
      ],
    })
    const box = await sandbox()
    await mkdir(REPO_TMP, { recursive: true })
    const dir = await mkdtemp(join(REPO_TMP, 'own-plugin-'))
    try {
      const plugin = join(dir, 'own-seam.ts')
      await writeFile(plugin, OWN_SEAM_PLUGIN)
      const config = join(box.root, 'mine.yml')
      const llm = `  llm:\n    endpoints: { loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" } }\n`
      await writeFile(config, `plugins:\n${llm}  ${plugin}: true\n`)
      const run = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'shout'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(run.stderr).toBe('')
      const results = jsonLines(run.stdout)
        .filter((l) => l.type === 'tool/result')
        .map((l) => (l as { data: { content: Array<{ text: string }>; error?: { code: string } } }).data)
      expect(results.map((r) => [r.content[0].text, r.error?.code])).toEqual([
        ['HI', undefined],
        [expect.stringContaining('nothing to shout'), 'NOT_FOUND'],
      ])
    } finally {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('8.5 a broken plugin, a bad plugin setting and an unknown plugin name are one-line errors naming the file', async () => {
    const box = await sandbox()
    const plugins = join(box.tackHome, 'plugins')
    await mkdir(plugins, { recursive: true })
    const broken = join(plugins, 'broken.mjs')
    await writeFile(broken, 'export default {\n')
    const r = await runTack(['run', '--model', 'local/m', 'x'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`tack: plugin ${broken}: cannot be loaded: SyntaxError`)
    const doctor = await runTack(['doctor', '--model', 'local/m'], { env: box.env, cwd: box.workspace })
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toContain(`BROKEN — plugin ${broken}: cannot be loaded`)

    await writeFile(broken, 'export const name = "fine"\nexport function apply() {}\n')
    const config = join(box.root, 'bad.yml')
    await writeFile(config, `plugins:\n  ${join(EXAMPLES, 'bash-guard.ts')}: { deny: 5 }\n`)
    const bad = await runTack(['run', '--config', config, '--model', 'local/m', 'x'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(
      new RegExp(`^tack: plugin ${join(EXAMPLES, 'bash-guard.ts')}: deny: must be a list of strings`),
    )

    await writeFile(config, 'plugins:\n  agnet: { maxStepsPerTurn: 3 }\n')
    const typo = await runTack(['run', '--config', config, '--model', 'local/m', 'x'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain(`${config}: plugins.agnet: unknown plugin`)
    expect(typo.stderr).toContain(`no package "agnet" in node_modules from ${box.root} upwards`)
  })
})
