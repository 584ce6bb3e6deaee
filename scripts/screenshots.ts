// Renders the README's screenshots from the real binary: each scene runs `tack` in a pseudo-terminal
// against a scripted loopback model, and the headless terminal's screen, colours included, becomes an SVG
// under docs/screenshots/. Build first (`node scripts/build.ts`); then `node scripts/screenshots.ts`.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { screenToSvg, type SvgOptions } from '../apps/tack/test/pty/svg.ts'
import { closeAllTuis, openTui, submit, type TuiRun } from '../apps/tack/test/pty/tui-session.ts'

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url))
const SIZE = { cols: 90, rows: 24 }

const GREET_BEFORE = `export function greet(name: string): string {
  return 'Hello ' + name
}
`

interface Scene {
  readonly file: string
  readonly svg?: SvgOptions
  shoot(): Promise<TuiRun>
}

const SCENES: Scene[] = [
  {
    file: 'diff-card.svg',
    async shoot() {
      const run = await openTui(
        [
          {
            kind: 'tool-calls',
            calls: [
              {
                name: 'edit',
                args: {
                  file_path: 'src/greet.ts',
                  old_string: "  return 'Hello ' + name",
                  new_string: "  return 'Hello, ' + name + '!'",
                },
              },
            ],
            usage: { inputTokens: 1800, outputTokens: 60 },
          },
          {
            kind: 'text',
            text: '`greet` now uses a template literal and ends with an exclamation mark.',
            usage: { inputTokens: 1900, outputTokens: 20 },
          },
        ],
        {
          ...SIZE,
          args: ['--permission-mode', 'workspace-write'],
          prepare: async (ws) => {
            await mkdir(join(ws, 'src'), { recursive: true })
            await writeFile(join(ws, 'src', 'greet.ts'), GREET_BEFORE)
          },
        },
      )
      await submit(run.term, 'greet should use a template literal')
      await run.term.waitFor('exclamation mark', 30_000)
      return run
    },
  },
  {
    file: 'permission-prompt.svg',
    async shoot() {
      const run = await openTui(
        [{ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'npm test -- --run' } }] }],
        { ...SIZE, args: ['--permission-mode', 'ask'] },
      )
      await submit(run.term, 'run the tests')
      await run.term.waitFor('Permission required', 30_000)
      return run
    },
  },
  {
    file: 'status-line.svg',
    svg: { rows: [-4, 24] },
    async shoot() {
      const run = await openTui(
        [
          {
            kind: 'text',
            text: 'Hello! What shall we build?',
            usage: { inputTokens: 5200, outputTokens: 9 },
          },
        ],
        { ...SIZE },
      )
      await submit(run.term, 'hi')
      await run.term.waitFor('What shall we build?', 30_000)
      return run
    },
  },
]

await mkdir(OUT, { recursive: true })
try {
  for (const scene of SCENES) {
    const run = await scene.shoot()
    await run.term.settled()
    await writeFile(join(OUT, scene.file), screenToSvg(run.term.terminal, scene.svg))
    process.stdout.write(`docs/screenshots/${scene.file}\n`)
    await closeAllTuis()
  }
} finally {
  await closeAllTuis()
}
