// Images from the user through the real binary (85-skills-and-commands.md I2,
// docs/decisions/0285-user-images.md): `tack run --image` puts image blocks after the prompt's words
// in the request; a wrong path is a usage error before anything runs; a model without image input gets
// a refusal before any request; a model that takes images gets an `image_url` data URL on the wire;
// an image past the pixel bound is scaled (PNG) or refused (GIF).
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { imageBlockSize } from '@tack/session'
import { gifHeaderOf, pngOf } from '@tack/session/testing'
import { createHash } from 'node:crypto'
import { DatabaseSync } from 'node:sqlite'
import { expect, test } from 'vitest'
import {
  jsonLines,
  runTack,
  type Sandbox,
  sandbox,
  scriptedModel,
  textAnswers,
  writeLoopConfig,
} from './helpers.ts'

interface LoggedImage {
  type: 'image'
  mimeType: string
  data: string
  sha256: string
  bytes: number
}

/** The content of each request's user messages, from the scripted model's request log. */
async function userContents(model: string): Promise<Array<Array<{ type: string } & Partial<LoggedImage>>>> {
  const log = await readFile(`${model.slice('scripted/'.length)}.requests.jsonl`, 'utf8')
  return log
    .trim()
    .split('\n')
    .flatMap((line) => (JSON.parse(line) as { messages: Array<{ role: string; content: never }> }).messages)
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
}

async function writeImages(box: Sandbox) {
  const png = pngOf(30, 20)
  const gif = Buffer.concat([gifHeaderOf(2, 2), Buffer.from([0x3b])])
  await writeFile(join(box.workspace, 'shot.png'), png)
  await writeFile(join(box.workspace, 'anim.gif'), gif)
  await writeFile(join(box.workspace, 'notes.png'), 'not really a png')
  return { png, gif }
}

test('I2 tack run --image: the request carries the images after the words, in order, by hash', async () => {
  const box = await sandbox()
  const { png, gif } = await writeImages(box)
  const model = await scriptedModel(box.root, textAnswers('a screenshot and a GIF'))
  const run = await runTack(
    ['run', '--model', model, '--image', 'shot.png', '--image', 'anim.gif', 'what are these?'],
    {
      env: box.env,
      cwd: box.workspace,
    },
  )
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(run.stdout).toBe('a screenshot and a GIF\n')
  const [content] = await userContents(model)
  expect(content?.map((b) => b.type)).toEqual(['text', 'image', 'image'])
  expect(content?.[1]).toMatchObject({
    mimeType: 'image/png',
    data: png.toString('base64'),
    sha256: createHash('sha256').update(png).digest('hex'),
    bytes: png.length,
  })
  expect(content?.[2]).toMatchObject({ mimeType: 'image/gif', data: gif.toString('base64') })
})

test('I2 tack run --image: a missing, non-image or folder path is a usage error (exit 2) before any request', async () => {
  const box = await sandbox()
  await writeImages(box)
  const model = await scriptedModel(box.root, textAnswers('never'))
  const cases: Array<[string, RegExp]> = [
    ['gone.png', /--image gone\.png: no such file/],
    ['notes.png', /--image notes\.png: not a PNG, JPEG, GIF or WebP image/],
    ['.', /--image \.: a folder, not an image file/],
  ]
  for (const [path, message] of cases) {
    const run = await runTack(['run', '--model', model, '--image', path, 'look'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stdout).toBe('')
  }
  expect(existsSync(`${model.slice('scripted/'.length)}.requests.jsonl`)).toBe(false)
  // the interactive UI takes dropped paths instead
  const ui = await runTack(['--model', model, '--image', 'shot.png'], { env: box.env, cwd: box.workspace })
  expect(ui.code).toBe(2)
  expect(ui.stderr).toContain('--image belongs to headless runs')
})

test('I2 tack run --image: a FIFO or a device is refused at once (exit 2), never waited on or read without end', async () => {
  const box = await sandbox()
  const { execFileSync } = await import('node:child_process')
  execFileSync('mkfifo', [join(box.workspace, 'pipe.png')])
  const model = await scriptedModel(box.root, textAnswers('never'))
  for (const path of ['pipe.png', '/dev/zero']) {
    const started = Date.now()
    const run = await runTack(['run', '--model', model, '--image', path, 'look'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`--image ${path}: not a regular file`)
    expect(Date.now() - started).toBeLessThan(15_000)
  }
  expect(existsSync(`${model.slice('scripted/'.length)}.requests.jsonl`)).toBe(false)
}, 40_000)

test('I2 a model without image input: refused before the request, naming the model and the endpoint setting', async () => {
  const server = await startLoopbackServer({ script: [] })
  const box = await sandbox()
  try {
    await writeImages(box)
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const args = [
      'run',
      '--config',
      config,
      '--model',
      'loop/text-only',
      '--image',
      'shot.png',
      'what is this?',
    ]
    const text = await runTack(args, { env: box.env, cwd: box.workspace })
    expect(text.code).toBe(0)
    expect(text.stdout).toBe('')
    expect(text.stderr).toContain('model loop/text-only takes no images')
    expect(text.stderr).toContain('plugins.llm.endpoints.loop.images: true')
    const json = await runTack(['run', '--json', ...args.slice(1)], { env: box.env, cwd: box.workspace })
    const result = jsonLines(json.stdout).at(-1) as { reason: { kind: string; reason: string } }
    expect(result.reason.kind).toBe('rejected')
    expect(result.reason.reason).toContain('takes no images')
    expect(server.requests).toHaveLength(0)
  } finally {
    await server.close()
  }
})

test('I2 a model that takes images (endpoint images: true): the wire carries an image_url data URL', async () => {
  const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'I see a grey box' }] })
  const box = await sandbox()
  try {
    const { png } = await writeImages(box)
    const config = join(box.root, 'vision.yml')
    await writeFile(
      config,
      `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}", images: true }\n`,
    )
    const run = await runTack(
      ['run', '--config', config, '--model', 'loop/vision', '--image', 'shot.png', 'describe'],
      {
        env: box.env,
        cwd: box.workspace,
      },
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('I see a grey box\n')
    const body = server.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> }
    const user = body.messages.find((m) => m.role === 'user')
    expect(user?.content).toEqual([
      { type: 'text', text: 'describe' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ])
  } finally {
    await server.close()
  }
})

test('I2 past plugins.llm.images.maxLongEdge: a PNG is scaled down to fit, a GIF refused before the request', async () => {
  const box = await sandbox()
  await writeFile(join(box.workspace, 'wide.png'), pngOf(400, 100))
  await writeFile(
    join(box.workspace, 'wide.gif'),
    Buffer.concat([gifHeaderOf(400, 100), Buffer.from([0x3b])]),
  )
  const config = join(box.root, 'bounds.yml')
  await writeFile(config, 'plugins:\n  llm:\n    images: { maxLongEdge: 100 }\n')
  const model = await scriptedModel(box.root, textAnswers('small now'))
  const scaled = await runTack(['run', '--config', config, '--model', model, '--image', 'wide.png', 'look'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(scaled.code).toBe(0)
  const [content] = await userContents(model)
  const image = content?.[1] as LoggedImage
  expect(imageBlockSize(image)).toEqual({ width: 100, height: 25 })

  const refused = await runTack(
    ['run', '--config', config, '--model', model, '--image', 'wide.gif', 'look'],
    {
      env: box.env,
      cwd: box.workspace,
    },
  )
  expect(refused.code).toBe(0)
  expect(refused.stderr).toContain('400×100 px, past plugins.llm.images.maxLongEdge (100 px')
  expect(await userContents(model)).toHaveLength(1)
})

test('I2 a command that answers a prompt (tack run --image F "/ask …") keeps the images after the command\'s text', async () => {
  const box = await sandbox()
  const { png } = await writeImages(box)
  await mkdir(join(box.tackHome, 'plugins'), { recursive: true })
  await writeFile(
    join(box.tackHome, 'plugins', 'asker.mjs'),
    `export const name = 'asker'
export function apply(ctx) {
  ctx.get('commands').register({ name: 'ask', description: 'Asks the model', run: ({ args }) => ({ kind: 'prompt', text: 'please ' + args }) })
}
`,
  )
  const model = await scriptedModel(box.root, textAnswers('looked'))
  const run = await runTack(['run', '--model', model, '--image', 'shot.png', '/ask look'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(run.code).toBe(0)
  const [content] = await userContents(model)
  expect(content).toEqual([
    { type: 'text', text: 'please look' },
    expect.objectContaining({ type: 'image', data: png.toString('base64') }),
  ])
})

test('I2 a prompt image is stored once in the SQLite log and sent again by every later request, -c included', async () => {
  const box = await sandbox()
  const { png } = await writeImages(box)
  const base64 = png.toString('base64')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'glob', args: { pattern: '*.gif' } }] },
    { kind: 'text', text: 'one GIF' },
    { kind: 'text', text: 'still the same screenshot' },
  ])
  const first = await runTack(['run', '--model', model, '--image', 'shot.png', 'what is here?'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(first.code, first.stderr).toBe(0)
  const again = await runTack(['run', '-c', '--model', model, 'and now?'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(again.stdout).toBe('still the same screenshot\n')
  // three requests, each carrying the image of the first prompt
  const requests = (await readFile(`${model.slice('scripted/'.length)}.requests.jsonl`, 'utf8'))
    .trim()
    .split('\n')
  expect(requests).toHaveLength(3)
  for (const line of requests) expect(line.split(base64).length - 1).toBe(1)
  const db = new DatabaseSync(join(box.tackHome, 'sessions.db'), { readOnly: true })
  try {
    const rows = (db.prepare('SELECT data FROM events').all() as Array<{ data: string }>).map((r) => r.data)
    expect(rows.join('\n').split(base64).length - 1).toBe(1)
  } finally {
    db.close()
  }
})
