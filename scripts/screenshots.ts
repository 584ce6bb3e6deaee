// Renders the README's screenshots from the real binary: each scene runs `tack` in a pseudo-terminal
// against a scripted loopback model, and the headless terminal's screen, colours included, becomes an SVG
// under docs/screenshots/. Build first (`node scripts/build.ts`); then `node scripts/screenshots.ts`.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { screenToSvg } from '../apps/tack/test/pty/svg.ts'
import type { Sandbox } from '../apps/tack/test/helpers.ts'
import { closeAllTuis, openTui, submit, type TuiRun } from '../apps/tack/test/pty/tui-session.ts'

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url))
/** The terminal, and HOME as the sandbox's root so the header names the workspace `~/ws`, not a temp path. */
const SIZE = { cols: 90, rows: 24, env: (box: Sandbox) => ({ HOME: box.root }) }
/** A model name that reads like one (the endpoint is still the loopback server). */
const MODEL = ['--model', 'loop/qwen3-coder']

const GREET_BEFORE = `export function greet(name: string): string {
  return 'Hello ' + name
}
`

interface Scene {
  readonly file: string
  /** The picture's title (alternative text). */
  readonly title: string
  /** Which visible rows to draw, `[from, to)`, given the screen's lines; default: down to the last non-blank. */
  readonly rows?: (lines: readonly string[]) => [number, number]
  shoot(): Promise<TuiRun>
}

const lastNonBlank = (lines: readonly string[]) => lines.findLastIndex((l) => l.trim() !== '')

const SCENES: Scene[] = [
  {
    file: 'diff-card.svg',
    title: "tack: an edit's diff card, the applied hunk with numbered removed and added lines",
    async shoot() {
      const run = await openTui(
        [
          { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'src/greet.ts' } }] },
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
            text: '`greet` now ends its greeting with an exclamation mark.',
            usage: { inputTokens: 1900, outputTokens: 20 },
          },
        ],
        {
          ...SIZE,
          args: [...MODEL, '--permission-mode', 'workspace-write'],
          prepare: async (ws) => {
            await mkdir(join(ws, 'src'), { recursive: true })
            await writeFile(join(ws, 'src', 'greet.ts'), GREET_BEFORE)
          },
        },
      )
      await submit(run.term, 'greet should end with an exclamation mark')
      await run.term.waitFor('with an exclamation mark.', 30_000)
      return run
    },
  },
  {
    file: 'approval-diff.svg',
    title:
      'tack: a permission prompt for an edit, showing the exact diff it would apply before anything is written',
    async shoot() {
      const run = await openTui(
        [
          { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'src/greet.ts' } }] },
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
          },
        ],
        {
          ...SIZE,
          args: [...MODEL, '--permission-mode', 'ask'],
          prepare: async (ws) => {
            await mkdir(join(ws, 'src'), { recursive: true })
            await writeFile(join(ws, 'src', 'greet.ts'), GREET_BEFORE)
          },
        },
      )
      await submit(run.term, 'greet should end with an exclamation mark')
      await run.term.waitFor('Allow edit src/greet.ts?', 30_000)
      return run
    },
  },
  {
    file: 'permission-prompt.svg',
    title: 'tack: a permission prompt for a bash call — allow once, for this session, or deny',
    async shoot() {
      const run = await openTui(
        [{ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'npm test -- --run' } }] }],
        { ...SIZE, args: [...MODEL, '--permission-mode', 'ask'] },
      )
      await submit(run.term, 'run the tests')
      await run.term.waitFor('Permission required', 30_000)
      return run
    },
  },
  {
    file: 'status-line.svg',
    title: 'tack: the prompt box and the status line (model, context, tokens, cost, mode, session)',
    // the prompt box between its rules, and the status line under it
    rows: (lines) => {
      const status = lines.findIndex((l) => l.startsWith('loop/'))
      return [status - 3, status + 1]
    },
    async shoot() {
      const run = await openTui(
        [
          {
            kind: 'text',
            text: 'Hello! What shall we build?',
            usage: { inputTokens: 5200, outputTokens: 9 },
          },
        ],
        { ...SIZE, args: MODEL },
      )
      await submit(run.term, 'hi')
      await run.term.waitFor('What shall we build?', 30_000)
      // a draft in the box, as it looks while one types
      run.term.type('add a test for greet')
      await run.term.waitFor('add a test for greet')
      return run
    },
  },
]

await mkdir(OUT, { recursive: true })
try {
  for (const scene of SCENES) {
    const run = await scene.shoot()
    await run.term.settled()
    const lines = run.term.screen().split('\n')
    const rows = scene.rows?.(lines) ?? [0, lastNonBlank(lines) + 1]
    await writeFile(join(OUT, scene.file), screenToSvg(run.term.terminal, { rows, title: scene.title }))
    process.stdout.write(`docs/screenshots/${scene.file}\n`)
    await closeAllTuis()
  }
} finally {
  await closeAllTuis()
}
