// Regenerates docs/screenshots/web-view.png: a session made by the real binary (`tack run` against a
// scripted loopback model: a read, an edit, a test command, an answer) served by the real `tack serve`,
// opened in Debian's headless Chromium (packages/web/test/chromium.ts). `node scripts/web-screenshot.ts`.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { runOnLoop, sandbox, TACK_BIN } from '../apps/tack/test/helpers.ts'
import { launchChromium } from '../packages/web/test/chromium.ts'

const OUT = fileURLToPath(new URL('../docs/screenshots/web-view.png', import.meta.url))

const BEFORE = `export function greet(name: string): string {
  return 'Hello ' + name
}
`

const box = await sandbox()
await mkdir(join(box.workspace, 'src'), { recursive: true })
await writeFile(join(box.workspace, 'src', 'greet.ts'), BEFORE)
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens })
const model = await startLoopbackServer({
  script: [
    {
      kind: 'tool-calls',
      calls: [{ name: 'read', args: { file_path: 'src/greet.ts' } }],
      usage: usage(1800, 40),
    },
    {
      kind: 'tool-calls',
      calls: [
        {
          name: 'edit',
          args: {
            file_path: 'src/greet.ts',
            old_string: "  return 'Hello ' + name",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the edit writes a template literal into the file
            new_string: '  return `Hello, ${name}!`',
          },
        },
      ],
      usage: usage(2100, 60),
    },
    {
      kind: 'tool-calls',
      calls: [{ name: 'bash', args: { command: 'grep -n Hello src/greet.ts' } }],
      usage: usage(2300, 30),
    },
    { kind: 'text', text: 'greet now uses a template literal and ends with "!".', usage: usage(2400, 20) },
  ],
})
let serve: ChildProcess | undefined
try {
  const run = await runOnLoop(box, model.baseUrl, [
    '--model',
    'loop/qwen3-coder',
    '--permission-mode',
    'yolo',
    'make greet use a template literal',
  ])
  if (run.code !== 0) throw new Error(`tack run failed: ${run.stderr}`)
  serve = spawn(process.execPath, [TACK_BIN, 'serve', '--port', '0'], { env: box.env, cwd: box.workspace })
  const url = await new Promise<string>((resolve, reject) => {
    serve?.stdout?.on('data', (d: Buffer) => {
      const found = /http:\/\/\S+/.exec(d.toString())
      if (found) resolve(found[0])
    })
    serve?.on('exit', () => reject(new Error('tack serve exited')))
  })
  const browser = await launchChromium()
  try {
    const page = browser.pages()[0] ?? (await browser.newPage())
    await page.setViewportSize({ width: 1000, height: 640 })
    await page.goto(url)
    await page.locator('#sessions a').first().click()
    await page.locator('.tool .diff').first().waitFor()
    await page.screenshot({ path: OUT })
    process.stdout.write(`wrote ${OUT}\n`)
  } finally {
    await browser.close()
  }
} finally {
  serve?.kill('SIGTERM')
  await model.close()
}
